import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox, type SandboxApiVersion } from '../../src/sandbox/index.js';
import { fingerprint } from '../../src/sandbox/state/ids.js';
import { packageIdOf, type PackageDef } from '../../src/sandbox/state/package-store.js';
import { call } from '../support/sandbox-http.js';
import { createUser, expectDecodeFailure, expectError, expectRedacted, right, stateSnapshot, testSecret, type ErrorBody } from './auth-test-kit.js';

interface VettedPackages {
  packages: { packageId: string; validFromInclusive: string | null; validUntilExclusive: string | null; packageName: string; packageVersion: string }[];
  participantId: string;
  synchronizerId: string;
  topologySerial: number;
}
interface UpdateResponse {
  pastVettedPackages: VettedPackages | null;
  newVettedPackages: VettedPackages;
}

const id = {
  prim: packageIdOf('daml-prim', '0.0.0'),
  stdlib: packageIdOf('daml-stdlib', '3.4.0'),
  demo1: packageIdOf('ledger-rx-demo', '1.0.0'),
  demo11: packageIdOf('ledger-rx-demo', '1.1.0'),
  finance: packageIdOf('ledger-rx-finance', '1.0.0'),
  extras: packageIdOf('ledger-rx-extras', '0.1.0'),
};
const ALLOW_DEPS = 'UPDATE_VETTED_PACKAGES_FORCE_FLAG_ALLOW_UNVETTED_DEPENDENCIES';
const ALLOW_UPGRADES = 'UPDATE_VETTED_PACKAGES_FORCE_FLAG_ALLOW_VET_INCOMPATIBLE_UPGRADES';

type Ref = { packageId?: string; packageName?: string; packageVersion?: string };
const vet = (refs: Ref[], bounds: { from?: string | null; until?: string | null } = {}) => ({
  operation: { Vet: { value: { packages: refs, newValidFromInclusive: bounds.from ?? null, newValidUntilExclusive: bounds.until ?? null } } },
});
const unvet = (refs: Ref[]) => ({ operation: { Unvet: { value: { packages: refs } } } });

let sandboxes: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(sandboxes.map((s) => s.close()));
  sandboxes = [];
});

/** A fresh sandbox per test, so every test starts from the documented initial vetting state. */
async function fresh(synchronizers = 1, apiVersion: SandboxApiVersion = '3.6'): Promise<{ sandbox: Sandbox; admin: string; sync: string[] }> {
  const sandbox = await startSandbox({ authSecret: testSecret, synchronizers, apiVersion });
  sandboxes.push(sandbox);
  return { sandbox, admin: await sandbox.token('participant_admin'), sync: sandbox.state.synchronizers.map((s) => s.id) };
}

async function update(sandbox: Sandbox, token: string | undefined, body: unknown, path = '/v2/package-vetting/update') {
  return call(sandbox.url, 'POST', path, { ...(token === undefined ? {} : { token }), body });
}

async function ok(sandbox: Sandbox, token: string, body: unknown): Promise<UpdateResponse> {
  const r = await update(sandbox, token, body);
  expect(r.status, r.text).toBe(200);
  return r.json as UpdateResponse;
}

/** Sends a request that must be rejected with `code`, and checks that it changed nothing. */
async function rejected(sandbox: Sandbox, token: string | undefined, body: unknown, status: number, code: string): Promise<ErrorBody> {
  const before = stateSnapshot(sandbox);
  const e = expectError(await update(sandbox, token, body), status, code);
  expect(stateSnapshot(sandbox)).toBe(before);
  return e;
}

const ids = (v: VettedPackages | null | undefined) => (v?.packages.map((p) => p.packageId) ?? []).sort();

describe('vetting update: authorization and decoding come first', () => {
  it('needs a participant admin: no token 401, a plain user or an IDP admin 403, all redacted and without effect', async () => {
    const { sandbox } = await fresh();
    const plain = await createUser(sandbox, 'plain', { rights: [right('CanReadAsAnyParty')] });
    const idpAdmin = await createUser(sandbox, 'idp-admin', { rights: [right('IdentityProviderAdmin')] });
    const body = { changes: [vet([{ packageId: id.extras }])] };
    for (const [token, status] of [[undefined, 401], [plain, 403], [idpAdmin, 403]] as const) {
      const before = stateSnapshot(sandbox);
      expectRedacted(await update(sandbox, token, body), status);
      expect(stateSnapshot(sandbox)).toBe(before);
    }
    // Authorization precedes validation: an invalid request from a non-admin is still 403.
    expectRedacted(await update(sandbox, plain, { changes: [{ operation: { Empty: {} } }] }), 403);
  });

  it.each([
    ['a Vet without its value', { changes: [{ operation: { Vet: {} } }] }],
    ['a Prior without its value', { expectedTopologySerial: { serial: { Prior: {} } } }],
    ['an unknown operation', { changes: [{ operation: { Replace: { value: {} } } }] }],
    ['an unknown force flag', { updateVettedPackagesForceFlags: ['FORCE_EVERYTHING'] }],
    ['a bound that is not an ISO instant', { changes: [vet([{ packageId: id.extras }], { from: '2026-13-01' })] }],
    ['a non-boolean dryRun', { dryRun: 'yes' }],
  ])('answers %s with the 400 text/plain decode failure even without a token', async (_name, body) => {
    const { sandbox } = await fresh();
    expectDecodeFailure(await update(sandbox, undefined, body));
  });
});

describe('vetting update: request validation (PROTO_DESERIALIZATION_FAILURE)', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['an Empty operation', { changes: [{ operation: { Empty: {} } }] }, 'FieldNotSet(operation)'],
    ['a missing operation', { changes: [{}] }, 'FieldNotSet(operation)'],
    ['an {id, name} reference', { changes: [vet([{ packageId: id.extras, packageName: 'ledger-rx-extras' }])] }, 'InvariantViolation(Some(package_name),Either package_id must be set, or package_name and package_version must be set, or all three must be set.)'],
    ['an {id, version} reference', { changes: [unvet([{ packageId: id.extras, packageVersion: '0.1.0' }])] }, 'InvariantViolation(Some(package_name),'],
    ['a {version} reference', { changes: [vet([{ packageVersion: '0.1.0' }])] }, 'InvariantViolation(Some(package_name),'],
    ['an empty reference', { changes: [vet([{}])] }, 'InvariantViolation(Some(package_name),'],
    ['a malformed package id', { changes: [vet([{ packageId: 'bad id!' }])] }, 'ValueConversionError(package_id,'],
    ['a malformed package name', { changes: [vet([{ packageName: 'bad name!' }])] }, 'ValueConversionError(package_name,'],
    ['a malformed package version', { changes: [vet([{ packageName: 'ledger-rx-demo', packageVersion: 'v1' }])] }, 'ValueConversionError(package_version,'],
    ['a malformed synchronizer id', { synchronizerId: 'global' }, 'ValueConversionError(synchronizer_id,'],
    ['a Prior of 0', { expectedTopologySerial: { serial: { Prior: { value: 0 } } } }, 'InvariantViolation(Some(expected_topology_serial),'],
    ['a negative Prior', { expectedTopologySerial: { serial: { Prior: { value: '-3' } } } }, 'InvariantViolation(Some(expected_topology_serial),'],
    // Order: changes first (operation, then each reference's strings before its combination), then the
    // synchronizer id, then the serial.
    ['a bad operation and a bad synchronizer', { synchronizerId: 'x', changes: [vet([{ packageId: id.extras }]), { operation: { Empty: {} } }] }, 'FieldNotSet(operation)'],
    ['a bad id in a bad combination', { changes: [vet([{ packageId: 'bad!', packageVersion: '1.0.0' }])] }, 'ValueConversionError(package_id,'],
    ['a bad synchronizer and a bad serial', { synchronizerId: 'x', expectedTopologySerial: { serial: { Prior: { value: 0 } } } }, 'ValueConversionError(synchronizer_id,'],
  ];
  it.each(cases)('rejects %s', async (_name, body, reason) => {
    const { sandbox, admin } = await fresh();
    const e = await rejected(sandbox, admin, body, 400, 'PROTO_DESERIALIZATION_FAILURE');
    expect(e.cause).toBe('Deserialization of protobuf message failed');
    expect(e.context['reason']).toContain(reason);
  });

  it('validates before choosing the synchronizer', async () => {
    const { sandbox, admin } = await fresh(2);
    await rejected(sandbox, admin, { changes: [{}] }, 400, 'PROTO_DESERIALIZATION_FAILURE');
  });
});

describe('vetting update: synchronizer selection', () => {
  it('autodetects the only connected synchronizer and refuses to guess among several or none', async () => {
    const { sandbox, admin, sync } = await fresh(2);
    const body = { changes: [vet([{ packageId: id.prim }])] };
    const several = await rejected(sandbox, admin, body, 400, 'PACKAGE_SERVICE_CANNOT_AUTODETECT_SYNCHRONIZER');
    expect(several.cause).toBe(`Cannot autodetect synchronizer: currently connected synchronizers ${sync[0]}, ${sync[1]}`);
    expect(several.context['synchronizers']).toBe(`List(${sync[0]}, ${sync[1]})`);
    (sandbox.state.synchronizers[0] as { connected: boolean }).connected = false;
    const r = await ok(sandbox, admin, body);
    expect(r.newVettedPackages.synchronizerId).toBe(sync[1]);
    (sandbox.state.synchronizers[1] as { connected: boolean }).connected = false;
    const none = await rejected(sandbox, admin, body, 400, 'PACKAGE_SERVICE_CANNOT_AUTODETECT_SYNCHRONIZER');
    expect(none.cause).toBe('Cannot autodetect synchronizer: no synchronizers currently connected');
    expect(none.context['synchronizers']).toBe('List()');
  });

  it('refuses an unknown or disconnected synchronizer', async () => {
    const { sandbox, admin, sync } = await fresh(2);
    const unknown = `elsewhere::${fingerprint('elsewhere')}`;
    const e = await rejected(sandbox, admin, { synchronizerId: unknown }, 400, 'PACKAGE_SERVICE_NOT_CONNECTED_TO_SYNCHRONIZER');
    expect(e.cause).toBe(`Cannot upload a dar because the participant is not connected to synchronizer '${unknown}'.`);
    (sandbox.state.synchronizers[1] as { connected: boolean }).connected = false;
    await rejected(sandbox, admin, { synchronizerId: sync[1] }, 400, 'PACKAGE_SERVICE_NOT_CONNECTED_TO_SYNCHRONIZER');
    expect((await ok(sandbox, admin, { synchronizerId: sync[0] })).newVettedPackages.synchronizerId).toBe(sync[0]);
  });
});

describe('vetting update: references (Vet strict, Unvet lenient)', () => {
  it.each([
    [{ packageId: 'a'.repeat(64) }, `package-id: '${'a'.repeat(64)}'`, `No packages with package ID ${'a'.repeat(64)}`],
    [{ packageName: 'nope' }, "package-name: 'nope'", 'No packages with name nope'],
    [{ packageName: 'nope', packageVersion: '1.0.0' }, "NameAndVersion(name = 'nope', version = '1.0.0')", 'Name nope did not match any packages.'],
    [{ packageName: 'ledger-rx-demo', packageVersion: '9.9.9' }, "NameAndVersion(name = 'ledger-rx-demo', version = '9.9.9')", 'No packages with name ledger-rx-demo have version 9.9.9.'],
    [
      { packageId: id.demo1, packageName: 'ledger-rx-demo', packageVersion: '1.1.0' },
      `All(id = '${id.demo1}', name = 'ledger-rx-demo', version = '1.1.0')`,
      `Package with package ID ${id.demo1} has name ledger-rx-demo and version 1.0.0, but filter specifies name ledger-rx-demo and version 1.1.0`,
    ],
  ])('Vet of %j matching nothing is UNRESOLVED_VETTING_REFERENCE (404)', async (ref, text, reason) => {
    const { sandbox, admin } = await fresh();
    const e = await rejected(sandbox, admin, { changes: [vet([ref])] }, 404, 'UNRESOLVED_VETTING_REFERENCE');
    expect(e.cause).toBe(`The vetted package reference ${text} does not match any package in the package store. Reason: ${reason}`);
    expect(e.errorCategory).toBe(11);
  });

  it('Vet by a name with two uploaded versions is AMBIGUOUS_VETTING_REFERENCE', async () => {
    const { sandbox, admin } = await fresh();
    const e = await rejected(sandbox, admin, { changes: [vet([{ packageName: 'ledger-rx-demo' }])] }, 400, 'AMBIGUOUS_VETTING_REFERENCE');
    expect(e.cause).toContain("The package reference package-name: 'ledger-rx-demo' matches multiple packages: ");
  });

  it('Vet resolves {id}, {name}, {name, version} and {id, name, version}', async () => {
    const { sandbox, admin } = await fresh();
    await ok(sandbox, admin, { changes: [unvet([{ packageId: id.extras }])] });
    for (const ref of [{ packageId: id.extras }, { packageName: 'ledger-rx-extras' }, { packageName: 'ledger-rx-extras', packageVersion: '0.1.0' }, { packageId: id.extras, packageName: 'ledger-rx-extras', packageVersion: '0.1.0' }]) {
      const r = await ok(sandbox, admin, { changes: [unvet([{ packageId: id.extras }]), vet([ref])] });
      expect(ids(r.newVettedPackages)).toContain(id.extras);
    }
  });

  it('Unvet ignores references matching nothing and unvets every match of a name', async () => {
    const { sandbox, admin } = await fresh();
    const before = sandbox.state.vetting.get(sandbox.state.synchronizers[0]?.id as string, sandbox.state.participantId);
    const ignored = await ok(sandbox, admin, { changes: [unvet([{ packageName: 'nope' }, { packageId: 'b'.repeat(64) }])] });
    expect(ignored.newVettedPackages).toEqual(ignored.pastVettedPackages);
    expect(ignored.newVettedPackages.topologySerial).toBe(1);
    expect(sandbox.state.vetting.get(sandbox.state.synchronizers[0]?.id as string, sandbox.state.participantId)).toBe(before);
    const both = await ok(sandbox, admin, { changes: [unvet([{ packageName: 'ledger-rx-demo' }, { packageName: 'ledger-rx-finance' }])] });
    expect(ids(both.newVettedPackages)).toEqual([id.prim, id.stdlib].sort());
    expect(both.newVettedPackages.topologySerial).toBe(2);
  });
});

describe('vetting update: serial precondition', () => {
  it.each([
    [{ Prior: { value: 1 } }, undefined],
    [{ Empty: {} }, undefined],
    [{ Prior: { value: 5 } }, 'The provided serial Some(1) did not match the expected serial Some(5).'],
    [{ NoPrior: {} }, 'The provided serial Some(1) did not match the expected serial None.'],
  ])('on a synchronizer with a state (serial 1), %j → %s', async (serial, cause) => {
    const { sandbox, admin } = await fresh();
    const body = { expectedTopologySerial: { serial }, changes: [vet([{ packageId: id.extras }])] };
    if (cause === undefined) {
      expect((await ok(sandbox, admin, body)).newVettedPackages.topologySerial).toBe(2);
      return;
    }
    const e = await rejected(sandbox, admin, body, 400, 'TOPOLOGY_SERIAL_MISMATCH');
    expect(e.cause).toBe(cause);
    // Checked in dry runs too.
    await rejected(sandbox, admin, { ...body, dryRun: true }, 400, 'TOPOLOGY_SERIAL_MISMATCH');
  });

  it('on a synchronizer without a state, Prior fails and NoPrior passes', async () => {
    const { sandbox, admin, sync } = await fresh(2);
    const body = (serial: unknown) => ({ synchronizerId: sync[1], expectedTopologySerial: { serial }, changes: [vet([{ packageId: id.prim }])] });
    const e = await rejected(sandbox, admin, body({ Prior: { value: 1 } }), 400, 'TOPOLOGY_SERIAL_MISMATCH');
    expect(e.cause).toBe('The provided serial None did not match the expected serial Some(1).');
    const r = await ok(sandbox, admin, body({ NoPrior: {} }));
    expect(r.pastVettedPackages).toBeNull();
    expect(r.newVettedPackages.topologySerial).toBe(1);
    // The second time, the state exists.
    expect((await ok(sandbox, admin, { ...body({ Prior: { value: 1 } }), changes: [vet([{ packageId: id.stdlib }])] })).newVettedPackages.topologySerial).toBe(2);
  });
});

describe('vetting update: computing the new state', () => {
  it('returns the whole past and new state, enriched, with serial + 1, and the list shows the change', async () => {
    const { sandbox, admin, sync } = await fresh();
    const r = await ok(sandbox, admin, { changes: [vet([{ packageId: id.extras }], { from: '2026-01-01T00:00:00.5Z', until: '2030-01-01T00:00:00.123456789Z' })] });
    expect(r.pastVettedPackages?.topologySerial).toBe(1);
    expect(r.newVettedPackages).toMatchObject({ synchronizerId: sync[0], participantId: sandbox.state.participantId, topologySerial: 2 });
    expect(ids(r.newVettedPackages)).toEqual([...ids(r.pastVettedPackages), id.extras].sort());
    expect(r.newVettedPackages.packages.find((p) => p.packageId === id.extras)).toEqual({
      packageId: id.extras,
      packageName: 'ledger-rx-extras',
      packageVersion: '0.1.0',
      validFromInclusive: '2026-01-01T00:00:00.500Z',
      validUntilExclusive: '2030-01-01T00:00:00.123456789Z',
    });
    const listed = await call(sandbox.url, 'POST', '/v2/package-vetting/list', {
      token: admin,
      body: { topologyStateFilter: { participantIds: [sandbox.state.participantId] } },
    });
    expect((listed.json as { vettedPackages: VettedPackages[] }).vettedPackages[0]).toEqual(r.newVettedPackages);
  });

  it('takes bounds with an offset or in lower case, converted to UTC before use', async () => {
    const { sandbox, admin } = await fresh();
    const r = await ok(sandbox, admin, { changes: [vet([{ packageId: id.extras }], { from: '2027-01-01T01:00:00+01:00', until: '2027-01-01t00:00:00.5-05:30' })] });
    expect(r.newVettedPackages.packages.find((p) => p.packageId === id.extras)).toMatchObject({
      validFromInclusive: '2027-01-01T00:00:00Z',
      validUntilExclusive: '2027-01-01T05:30:00.500Z',
    });
    // The same instant given in another zone is no change at all.
    const same = await ok(sandbox, admin, { changes: [vet([{ packageId: id.extras }], { from: '2026-12-31T23:00:00-01:00', until: '2027-01-01T05:30:00.500000Z' })] });
    expect(same.newVettedPackages.topologySerial).toBe(r.newVettedPackages.topologySerial);
    // Bounds are compared in UTC: 00:30+01:00 is before 00:00Z.
    const e = await rejected(sandbox, admin, { changes: [vet([{ packageId: id.extras }], { from: '2028-01-01T00:00:00Z', until: '2028-01-01T00:30:00+01:00' })] }, 400, 'TOPOLOGY_INVALID_MAPPING');
    expect(e.cause).toContain(`packages with empty validity period: ${id.extras}`);
  });

  it('refuses bounds Instant.parse refuses with the decode failure', async () => {
    const { sandbox, admin } = await fresh();
    for (const from of ['2027-01-01T00:00:00+18:30', '2027-01-01T12:00:60Z', '2027-01-01T00:00Z']) {
      expectDecodeFailure(await update(sandbox, admin, { changes: [vet([{ packageId: id.extras }], { from })] }));
    }
  });

  it('applies changes in order keyed by package id; Vet overwrites both bounds', async () => {
    const { sandbox, admin } = await fresh();
    const later = await ok(sandbox, admin, { changes: [vet([{ packageId: id.extras }]), unvet([{ packageId: id.extras }])] });
    expect(later.newVettedPackages).toEqual(later.pastVettedPackages);
    const relisted = await ok(sandbox, admin, { changes: [unvet([{ packageId: id.extras }]), vet([{ packageId: id.extras }], { until: '2031-01-01T00:00:00Z' })] });
    expect(relisted.newVettedPackages.packages.find((p) => p.packageId === id.extras)?.validUntilExclusive).toBe('2031-01-01T00:00:00Z');
    const overwritten = await ok(sandbox, admin, { changes: [vet([{ packageId: id.extras }], { from: '2027-01-01T00:00:00Z' })] });
    expect(overwritten.newVettedPackages.packages.find((p) => p.packageId === id.extras)).toMatchObject({ validFromInclusive: '2027-01-01T00:00:00Z', validUntilExclusive: null });
    expect(overwritten.newVettedPackages.topologySerial).toBe(3);
  });

  it('leaves the serial unchanged for a no-op and for an empty change list, answering past = new', async () => {
    const { sandbox, admin } = await fresh();
    for (const changes of [[vet([{ packageId: id.prim }])], [], [unvet([{ packageId: id.extras }])]]) {
      const before = stateSnapshot(sandbox);
      const r = await ok(sandbox, admin, { changes });
      expect(r.pastVettedPackages).toEqual(r.newVettedPackages);
      expect(r.newVettedPackages.topologySerial).toBe(1);
      expect(stateSnapshot(sandbox)).toBe(before);
    }
  });

  it('writes a first, possibly empty, state with serial 1 and past null on a synchronizer without one', async () => {
    const { sandbox, admin, sync } = await fresh(2);
    const r = await ok(sandbox, admin, { synchronizerId: sync[1], changes: [] });
    expect(r).toEqual({ pastVettedPackages: null, newVettedPackages: { packages: [], participantId: sandbox.state.participantId, synchronizerId: sync[1], topologySerial: 1 } });
    expect(sandbox.state.vetting.get(sync[1] as string, sandbox.state.participantId)?.serial).toBe(1);
  });

  it('answers the deprecated POST /v2/package-vetting like /update up to 3.5; 3.6 has no such route (legacy 404)', async () => {
    const { sandbox, admin } = await fresh(1, '3.5');
    const body = { changes: [vet([{ packageId: id.extras }])] };
    const r = await call(sandbox.url, 'POST', '/v2/package-vetting', { token: admin, body, specVersion: '3.5' });
    expect(r.status).toBe(200);
    expect((r.json as UpdateResponse).newVettedPackages.topologySerial).toBe(2);
    const on36 = await fresh();
    const gone = await call(on36.sandbox.url, 'POST', '/v2/package-vetting', { token: on36.admin, body });
    expect(gone.status).toBe(404);
    expect((gone.json as { errors: string[] }).errors[0]).toMatch(/^POST, uri: http:\/\/.*\/v2\/package-vetting$/);
  });
});

describe('vetting update: dry run', () => {
  it.each([
    ['a change', 0, [vet([{ packageId: id.extras }], { from: '2026-05-05T00:00:00Z' })]],
    ['a first state', 1, [vet([{ packageId: id.prim }])]],
    ['an unvet', 0, [unvet([{ packageId: id.finance }])]],
  ])('answers %s exactly as the real run would, and writes nothing', async (_name, synchronizer, changes) => {
    const { sandbox, admin, sync } = await fresh(2);
    const body = { changes, synchronizerId: sync[synchronizer] };
    const before = stateSnapshot(sandbox);
    const dry = await ok(sandbox, admin, { ...body, dryRun: true });
    expect(stateSnapshot(sandbox)).toBe(before);
    const real = await ok(sandbox, admin, body);
    expect(dry).toEqual(real);
    expect(stateSnapshot(sandbox)).not.toBe(before);
  });

  it.each([
    ['invalid bounds', [vet([{ packageId: id.extras }], { from: '2026-01-01T00:00:00Z', until: '2026-01-01T00:00:00Z' })], [], 'TOPOLOGY_INVALID_MAPPING'],
    ['an unvetted dependency', [unvet([{ packageId: id.demo1 }])], [], 'TOPOLOGY_DEPENDENCIES_NOT_VETTED'],
    ['an unresolved reference', [vet([{ packageName: 'nope' }])], [], 'UNRESOLVED_VETTING_REFERENCE'],
  ])('reports %s exactly as the real run', async (_name, changes, flags, code) => {
    const { sandbox, admin } = await fresh();
    const real = await rejected(sandbox, admin, { changes, updateVettedPackagesForceFlags: flags }, code === 'UNRESOLVED_VETTING_REFERENCE' ? 404 : 400, code);
    const dry = await rejected(sandbox, admin, { changes, updateVettedPackagesForceFlags: flags, dryRun: true }, code === 'UNRESOLVED_VETTING_REFERENCE' ? 404 : 400, code);
    expect({ ...dry, traceId: null, context: { ...dry.context, tid: '' } }).toEqual({ ...real, traceId: null, context: { ...real.context, tid: '' } });
  });
});

describe('vetting update: topology checks', () => {
  it('refuses bounds whose start is not before their end (TOPOLOGY_INVALID_MAPPING)', async () => {
    const { sandbox, admin } = await fresh();
    for (const [from, until] of [['2026-01-02T00:00:00Z', '2026-01-01T00:00:00Z'], ['2026-01-01T00:00:00Z', '2026-01-01T00:00:00.000Z']] as const) {
      const e = await rejected(sandbox, admin, { changes: [vet([{ packageId: id.extras }], { from, until })] }, 400, 'TOPOLOGY_INVALID_MAPPING');
      expect(e.cause).toContain(`packages with empty validity period: ${id.extras}`);
      expect(e.errorCategory).toBe(8);
    }
    expect((await ok(sandbox, admin, { changes: [vet([{ packageId: id.extras }], { from: '2026-01-01T00:00:00Z', until: '2026-01-01T00:00:00.000000001Z' })] })).newVettedPackages.topologySerial).toBe(2);
  });

  it('refuses unvetting a package a vetted package depends on, unless forced', async () => {
    const { sandbox, admin } = await fresh();
    const body = { changes: [unvet([{ packageId: id.demo1 }])] };
    const e = await rejected(sandbox, admin, body, 400, 'TOPOLOGY_DEPENDENCIES_NOT_VETTED');
    expect(e.cause).toBe('Package vetting failed due to dependencies not being vetted');
    expect(e.context['unvetted']).toBe(`Set(${id.demo1})`);
    const forced = await ok(sandbox, admin, { ...body, updateVettedPackagesForceFlags: [ALLOW_DEPS] });
    expect(ids(forced.newVettedPackages)).not.toContain(id.demo1);
    // Unvetting the dependent package along with it needs no force.
    const { sandbox: other, admin: otherAdmin } = await fresh();
    await ok(other, otherAdmin, { changes: [unvet([{ packageId: id.demo1 }, { packageId: id.finance }])] });
  });

  it('refuses vetting a package whose dependencies are not vetted, unless forced or vetted together', async () => {
    const { sandbox, admin, sync } = await fresh(2);
    const body = { synchronizerId: sync[1], changes: [vet([{ packageId: id.finance }])] };
    const e = await rejected(sandbox, admin, body, 400, 'TOPOLOGY_DEPENDENCIES_NOT_VETTED');
    expect(e.context['unvetted']).toContain(id.demo1);
    const together = await ok(sandbox, admin, { ...body, dryRun: true, changes: [vet([{ packageId: id.finance }, { packageId: id.demo1 }, { packageId: id.stdlib }, { packageId: id.prim }])] });
    expect(together.newVettedPackages.packages).toHaveLength(4);
    const forced = await ok(sandbox, admin, { ...body, updateVettedPackagesForceFlags: [ALLOW_DEPS, 'UPDATE_VETTED_PACKAGES_FORCE_FLAG_UNSPECIFIED'] });
    expect(ids(forced.newVettedPackages)).toEqual([id.finance]);
  });

  it('refuses a package with a dependency missing from the package store (404)', async () => {
    const { sandbox, admin } = await fresh();
    const orphan: PackageDef = { packageId: 'c'.repeat(64), name: 'orphan', version: '1.0.0', dependencies: ['d'.repeat(64)], templates: [], interfaces: [] };
    sandbox.state.packages.add(orphan);
    const e = await rejected(sandbox, admin, { changes: [vet([{ packageId: orphan.packageId }])], updateVettedPackagesForceFlags: [ALLOW_DEPS] }, 404, 'TOPOLOGY_CANNOT_VET_DUE_TO_MISSING_PACKAGES');
    expect(e.cause).toContain('d'.repeat(64));
  });

  it('checks upgrades: an incompatible newer version and a second package of a known version need the force flag', async () => {
    const { sandbox, admin } = await fresh();
    const demo1 = sandbox.state.packages.get(id.demo1) as PackageDef;
    const demo11 = sandbox.state.packages.get(id.demo11) as PackageDef;
    // 2.0.0 drops a template of 1.1.0, the nearest lower vetted version.
    const broken: PackageDef = { ...demo11, packageId: 'e'.repeat(64), version: '2.0.0', templates: demo11.templates.filter((t) => t.entity !== 'Asset') };
    const twin: PackageDef = { ...demo1, packageId: '1'.repeat(64) };
    sandbox.state.packages.add(broken);
    sandbox.state.packages.add(twin);
    const upgrade = await rejected(sandbox, admin, { changes: [vet([{ packageId: broken.packageId }])] }, 400, 'NOT_VALID_UPGRADE_PACKAGE');
    expect(upgrade.cause).toContain(`cannot be an upgrade of package ${id.demo11} (ledger-rx-demo 1.1.0). Reason: template Asset:Asset is missing`);
    const known = await rejected(sandbox, admin, { changes: [vet([{ packageId: twin.packageId }])] }, 400, 'KNOWN_PACKAGE_VERSION');
    expect(known.cause).toContain(id.demo1);
    for (const pkg of [broken, twin]) {
      const r = await ok(sandbox, admin, { dryRun: true, changes: [vet([{ packageId: pkg.packageId }])], updateVettedPackagesForceFlags: [ALLOW_UPGRADES] });
      expect(ids(r.newVettedPackages)).toContain(pkg.packageId);
    }
  });

  it('vets an older version next to a newer compatible one', async () => {
    const { sandbox, admin, sync } = await fresh(2);
    await ok(sandbox, admin, { synchronizerId: sync[1], changes: [vet([{ packageId: id.prim }, { packageId: id.stdlib }, { packageId: id.demo11 }])] });
    const r = await ok(sandbox, admin, { synchronizerId: sync[1], changes: [vet([{ packageName: 'ledger-rx-demo', packageVersion: '1.0.0' }])] });
    expect(ids(r.newVettedPackages)).toEqual([id.prim, id.stdlib, id.demo1, id.demo11].sort());
    expect(r.newVettedPackages.topologySerial).toBe(2);
  });
});

describe('vetting update: processing order', () => {
  it('selects the synchronizer, then resolves references, then checks the serial, then validates the new state', async () => {
    const { sandbox, admin, sync } = await fresh(2);
    const unknownRef = vet([{ packageName: 'nope' }]);
    await rejected(sandbox, admin, { changes: [unknownRef] }, 400, 'PACKAGE_SERVICE_CANNOT_AUTODETECT_SYNCHRONIZER');
    await rejected(sandbox, admin, { synchronizerId: sync[0], changes: [unknownRef], expectedTopologySerial: { serial: { Prior: { value: 9 } } } }, 404, 'UNRESOLVED_VETTING_REFERENCE');
    const badBounds = vet([{ packageId: id.extras }], { from: '2030-01-01T00:00:00Z', until: '2020-01-01T00:00:00Z' });
    await rejected(sandbox, admin, { synchronizerId: sync[0], changes: [badBounds], expectedTopologySerial: { serial: { Prior: { value: 9 } } } }, 400, 'TOPOLOGY_SERIAL_MISMATCH');
    await rejected(sandbox, admin, { synchronizerId: sync[0], changes: [badBounds, unvet([{ packageId: id.demo1 }])] }, 400, 'TOPOLOGY_INVALID_MAPPING');
  });
});
