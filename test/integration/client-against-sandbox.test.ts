import { firstValueFrom, lastValueFrom, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLedgerClient, fieldMask, newCommandId, type LedgerClient } from '../../src/index.js';
import { LedgerApiError, PrunedOffsetError } from '../../src/errors/index.js';
import { startSandbox, type LedgerUpdate, type Sandbox } from '../../src/sandbox/index.js';
import { isUnknownVariant, type JsGetUpdatesResponse } from '../../src/schemas/index.js';
import { updateOffset } from '../../src/updates/update-offset.js';

/** Every client method, end to end against the embedded sandbox (no mocks on either side). */
let sandbox: Sandbox;
let client: LedgerClient;
let alice: string;
let bob: string;
const anyParty = { includeTransactions: { eventFormat: { filtersForAnyParty: {} }, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' as const } };

function offsets(elements: JsGetUpdatesResponse[]): number[] {
  return elements.map((e) => updateOffset(e) as number);
}

/** Offsets of the transactions an any-party ACS-delta reader sees: those with an event in the ACS delta. */
function acsDeltaTransactions(log: LedgerUpdate[]): number[] {
  return log.filter((u) => u.kind === 'Transaction' && u.events.some((e) => e.acsDelta)).map((u) => u.offset);
}

beforeAll(async () => {
  sandbox = await startSandbox({ synchronizers: 2, seed: 30, listWaitMs: 50, maxVettingPageSize: 2 });
  client = createLedgerClient({ baseUrl: sandbox.url });
  alice = sandbox.partyId('Alice');
  bob = sandbox.partyId('Bob');
});
afterAll(async () => {
  await client.close();
  await sandbox.close();
});

describe('the client against the sandbox', () => {
  it('version, ledgerEnd and latestPrunedOffsets', async () => {
    const version = await client.version();
    expect(version.features.packageFeature.maxVettedPackagesPageSize).toBe(2);
    expect((await client.ledgerEnd()).offset).toBe(sandbox.ledgerEnd());
    expect(await client.latestPrunedOffsets()).toMatchObject({ participantPrunedUpToInclusive: 0 });
  });

  it('updates(): a bounded read equals the sandbox log, offsets strictly increasing', async () => {
    const end = sandbox.ledgerEnd();
    const elements = await lastValueFrom(client.updates({ beginExclusive: 0, endInclusive: end, updateFormat: anyParty }, { limit: 200 }).pipe(toArray()));
    const expected = acsDeltaTransactions(sandbox.updates({ endInclusive: end }));
    expect(sandbox.updates({ endInclusive: end }).length).toBeGreaterThan(expected.length); // transients are hidden
    expect(offsets(elements)).toEqual(expected);
    expect(elements.length).toBeGreaterThan(10);
  });

  it('updates() with the legacy filter gets the update format of Rule 1, topology events included', async () => {
    const party = sandbox.allocateParty('LegacyReader');
    const end = sandbox.ledgerEnd();
    const elements = await lastValueFrom(
      client.updates({ beginExclusive: 0, endInclusive: end, filter: { filtersByParty: { [party]: {} } }, verbose: false }, { limit: 200 }).pipe(toArray()),
    );
    expect(elements.some((e) => 'TopologyTransaction' in e.update)).toBe(true);
  });

  it('iterateUpdates() yields the same elements as updates()', async () => {
    const end = sandbox.ledgerEnd();
    const viaIterator: JsGetUpdatesResponse[] = [];
    for await (const e of client.iterateUpdates({ beginExclusive: 0, endInclusive: end, updateFormat: anyParty }, { limit: 200 })) viaIterator.push(e);
    const viaObservable = await lastValueFrom(client.updates({ beginExclusive: 0, endInclusive: end, updateFormat: anyParty }, { limit: 200 }).pipe(toArray()));
    expect(offsets(viaIterator)).toEqual(offsets(viaObservable));
  });

  it('submit() then the transaction appears in updates() with its command id for the submitter', async () => {
    const before = sandbox.ledgerEnd();
    const commandId = newCommandId('e2e');
    await expect(
      client.submit({
        commands: [{ CreateCommand: { templateId: '#ledger-rx-demo:Iou:Iou', createArguments: { issuer: alice, owner: bob, currency: 'EUR', amount: '12.5000000000', observers: [] } } }],
        commandId,
        actAs: [alice],
        userId: 'participant_admin',
      }),
    ).resolves.toEqual({});
    const after = sandbox.ledgerEnd();
    const elements = await lastValueFrom(
      client.updates(
        { beginExclusive: before, endInclusive: after, updateFormat: { includeTransactions: { eventFormat: { filtersByParty: { [alice]: {} } }, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' } } },
        { limit: 10 },
      ).pipe(toArray()),
    );
    const tx = elements.find((e) => 'Transaction' in e.update) as { update: { Transaction: { value: { commandId: string; events: unknown[] } } } } | undefined;
    expect(tx?.update.Transaction.value.commandId).toBe(commandId);
    expect(tx?.update.Transaction.value.events).toHaveLength(1);
  });

  it('a descending read returns the newest first', async () => {
    const end = sandbox.ledgerEnd();
    const elements = await lastValueFrom(client.updates({ beginExclusive: 0, endInclusive: end, descendingOrder: true, updateFormat: anyParty }, { limit: 5 }).pipe(toArray()));
    const got = offsets(elements);
    expect(got).toHaveLength(5);
    expect([...got].sort((a, b) => b - a)).toEqual(got);
    const newest = acsDeltaTransactions(sandbox.updates({ endInclusive: end })).slice(-5).reverse();
    expect(got).toEqual(newest);
  });

  it('errors come back typed: OFFSET_AFTER_LEDGER_END, and a 413 without a limit', async () => {
    const end = sandbox.ledgerEnd();
    const after = await firstValueFrom(client.updates({ beginExclusive: end + 1000, updateFormat: anyParty })).catch((e: unknown) => e);
    expect(after).toBeInstanceOf(LedgerApiError);
    expect(after).toMatchObject({ code: 'OFFSET_AFTER_LEDGER_END', status: 400, retryable: true, errorCategory: 12 });
    const small = await startSandbox({ seed: 20, maxListElements: 5 });
    const smallClient = createLedgerClient({ baseUrl: small.url });
    try {
      const tooMany = await lastValueFrom(smallClient.updates({ beginExclusive: 0, endInclusive: small.ledgerEnd(), updateFormat: anyParty }).pipe(toArray())).catch((e: unknown) => e);
      expect(tooMany).toMatchObject({ code: 'JSON_API_MAXIMUM_LIST_ELEMENTS_NUMBER_REACHED', status: 413 });
    } finally {
      await smallClient.close();
      await small.close();
    }
  });

  it('a pruned start is a PrunedOffsetError carrying the earliest offset', async () => {
    const pruned = await startSandbox({ seed: 20 });
    const c = createLedgerClient({ baseUrl: pruned.url });
    try {
      const cut = pruned.updates()[5]?.offset as number;
      pruned.prune(cut);
      expect((await c.latestPrunedOffsets()).participantPrunedUpToInclusive).toBe(cut);
      const error = await lastValueFrom(c.updates({ beginExclusive: 0, endInclusive: pruned.ledgerEnd(), updateFormat: anyParty }, { limit: 100 }).pipe(toArray())).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PrunedOffsetError);
      expect((error as PrunedOffsetError).earliestOffset).toBe(cut);
    } finally {
      await c.close();
      await pruned.close();
    }
  });

  it('parties: allocate and list', async () => {
    const allocated = await client.allocateParty({ partyIdHint: 'Zed', synchronizerId: sandbox.state.synchronizers[0]?.id ?? '' });
    expect(allocated.partyDetails.party).toMatch(/^Zed::1220[0-9a-f]{64}$/);
    const listed = await client.listParties();
    expect(listed.partyDetails.map((p) => p.party)).toContain(allocated.partyDetails.party);
  });

  it('users: create, get, update with a field mask, grant, list and revoke rights', async () => {
    await client.createUser({ user: { id: 'e2e-user', primaryParty: '', isDeactivated: false, identityProviderId: '' }, rights: [{ kind: { CanReadAs: { value: { party: alice } } } }] });
    const got = await client.getUser('e2e-user');
    expect(got.user.metadata?.resourceVersion).toBe('0');
    const patch = { id: 'e2e-user', primaryParty: alice, metadata: { annotations: { team: 'blue' } } };
    expect(fieldMask(patch)).toEqual({ paths: ['primary_party', 'metadata.annotations'] });
    const updated = await client.updateUser('e2e-user', { user: patch, updateMask: fieldMask(patch) });
    expect(updated.user).toMatchObject({ primaryParty: alice, metadata: { resourceVersion: '1', annotations: { team: 'blue' } } });
    const granted = await client.grantUserRights('e2e-user', { userId: 'e2e-user', rights: [{ kind: { CanActAs: { value: { party: alice } } } }] });
    expect(granted.newlyGrantedRights).toEqual([{ kind: { CanActAs: { value: { party: alice } } } }]);
    expect((await client.listUserRights('e2e-user')).rights).toHaveLength(2);
    const revoked = await client.revokeUserRights('e2e-user', {
      userId: 'e2e-user',
      rights: [{ kind: { CanActAs: { value: { party: alice } } } }, { kind: { CanActAs: { value: { party: bob } } } }],
    });
    expect(revoked.newlyRevokedRights).toEqual([{ kind: { CanActAs: { value: { party: alice } } } }]);
    const stale = await client.updateUser('e2e-user', { user: { id: 'e2e-user', metadata: { resourceVersion: '0' } }, updateMask: { paths: ['primary_party'] } }).catch((e: unknown) => e);
    expect(stale).toMatchObject({ code: 'CONCURRENT_USER_UPDATE_DETECTED', status: 409, retryable: true });
    const missing = await client.updateUser('nobody', { user: { id: 'nobody' }, updateMask: { paths: ['primary_party'] } }).catch((e: unknown) => e);
    expect(missing).toMatchObject({ code: 'USER_NOT_FOUND', status: 404, resources: [['USER', 'nobody']] });
  });

  it('packages and vetting: list pages, listAll walks every page once, dry run and real update on both endpoints', async () => {
    const packages = await client.listPackages();
    expect(packages.packageIds.length).toBeGreaterThanOrEqual(6);
    const firstPage = await client.listVettedPackages({ pageSize: 2 });
    expect(firstPage.vettedPackages).toHaveLength(2);
    expect(firstPage.nextPageToken).not.toBe('');
    const all = await lastValueFrom(client.listAllVettedPackages({ pageSize: 1 }).pipe(toArray()));
    const pairs = all.map((v) => `${v.synchronizerId}/${v.participantId}`);
    expect(new Set(pairs).size).toBe(pairs.length);
    expect(pairs.length).toBeGreaterThanOrEqual(3);

    const second = sandbox.state.synchronizers[1]?.id as string;
    const vet = { changes: [{ operation: { Vet: { value: { packages: [{ packageName: 'ledger-rx-extras' }] } } } }], synchronizerId: sandbox.state.synchronizers[0]?.id as string };
    const dry = await client.updateVettedPackages({ ...vet, dryRun: true });
    expect(dry.newVettedPackages.topologySerial).toBe((dry.pastVettedPackages?.topologySerial ?? 0) + 1);
    const real = await client.updateVettedPackages(vet, { endpoint: 'update' });
    expect(real.newVettedPackages.topologySerial).toBe(dry.newVettedPackages.topologySerial);
    const first = await client.updateVettedPackages({
      changes: [{ operation: { Vet: { value: { packages: [{ packageName: 'daml-prim' }, { packageName: 'daml-stdlib' }, { packageName: 'ledger-rx-demo', packageVersion: '1.1.0' }] } } } }],
      synchronizerId: second,
    });
    expect(first.pastVettedPackages).toBeNull();
    expect(first.newVettedPackages.topologySerial).toBe(1);
    const autodetect = await client.updateVettedPackages({ changes: [] }).catch((e: unknown) => e);
    expect(autodetect).toMatchObject({ code: 'PACKAGE_SERVICE_CANNOT_AUTODETECT_SYNCHRONIZER', status: 400 });
  });

  it('submitAndWaitForReassignment moves a contract and returns the reassignment', async () => {
    const [source, target] = sandbox.state.synchronizers.map((s) => s.id) as [string, string];
    const created = await sandbox.submit({
      commands: [{ CreateCommand: { templateId: '#ledger-rx-demo:Iou:Iou', createArguments: { issuer: alice, owner: alice, currency: 'USD', amount: '1.0000000000', observers: [] } } }],
      commandId: newCommandId('move'),
      actAs: [alice],
    });
    const contractId = created.contractIds[0] as string;
    const unassigned = await client.submitAndWaitForReassignment({
      reassignmentCommands: { commandId: newCommandId('unassign'), submitter: alice, userId: 'participant_admin', commands: [{ command: { UnassignCommand: { value: { contractId, source, target } } } }] },
      eventFormat: { filtersByParty: { [alice]: {} } },
    });
    const event = unassigned.reassignment.events[0];
    expect(event && 'JsUnassignedEvent' in event).toBe(true);
    expect(event && !isUnknownVariant(event) && 'JsUnassignedEvent' in event ? event.JsUnassignedEvent.value.contractId : undefined).toBe(contractId);
    expect(unassigned.reassignment.offset).toBeLessThanOrEqual(sandbox.ledgerEnd());
    const withoutFormat = await client
      .submitAndWaitForReassignment({
        reassignmentCommands: {
          commandId: newCommandId('assign'),
          submitter: alice,
          userId: 'participant_admin',
          commands: [{ command: { AssignCommand: { value: { reassignmentId: event && 'JsUnassignedEvent' in event ? event.JsUnassignedEvent.value.reassignmentId : '', source, target } } } }],
        },
      });
    expect(withoutFormat.reassignment.events).toEqual([]);
  });
});
