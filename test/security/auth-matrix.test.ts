import { inspect } from 'node:util';
import { isObservable, lastValueFrom } from 'rxjs';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLedgerClient, type LedgerClient } from '../../src/client/index.js';
import { LedgerApiError } from '../../src/errors/index.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { rightKey } from '../../src/sandbox/state/users-store.js';
import { identityProvidersOf } from '../../src/sandbox/users/identity-providers-of.js';
import { reportFigures } from '../support/ledger-oracle.js';
import { specAvailable } from '../support/shared-dir.js';
import { specProblems } from '../support/spec-validator.js';

/**
 * Every operation, with auth on, against every kind of failed authentication and every missing right:
 * the answer is the real server's redacted 401/403 body (docs/server-behavior.md#authentication-and-authorization, #error-body) and nothing changes.
 * Through raw HTTP (exact body, validated against openapi.yaml) and through the client (a typed
 * `LedgerApiError`, retried once for a 401 only with a token provider).
 */

const secret = 'auth-matrix-secret';
let sandbox: Sandbox;
let alice: string;
let bob: string;
let synchronizer: string;
let otherSynchronizer: string;
let contractId: string;
let transactionHash: string;
const tokens: Record<string, string> = {};
let cases = 0;
let clientCases = 0;

/** Identities whose authentication fails whatever the operation. */
const failedAuth: readonly [string, 401 | 403][] = [
  ['no token', 401],
  ['bad signature', 401],
  ['expired token', 403],
  ['unknown user', 403],
  ['deactivated user', 403],
];
/** Authenticated users, by the rights they hold. */
const users = ['nobody', 'alice-reader', 'alice-actor', 'actor-plus', 'any-reader', 'admin', 'acme-admin'] as const;
type User = (typeof users)[number];

function snapshot(): string {
  const s = sandbox.state;
  return JSON.stringify({
    end: sandbox.ledgerEnd(),
    users: s.users.all().map((u) => ({ ...u, rights: [...u.rights.values()].map(rightKey).sort() })),
    vetting: s.vetting.entries().map((e) => JSON.stringify(e)).sort(),
    parties: s.parties.all().map((p) => JSON.stringify(p)).sort(),
    idps: identityProvidersOf(s).all(),
  });
}

const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
const traceparent = `00-${traceId}-00f067aa0ba902b7-01`;

/** The redacted body of the real server, every key (docs/server-behavior.md#error-body). */
function expectRedacted(status: number, text: string, expected: 401 | 403, what: string, method: string, path: string): void {
  expect(status, `${what}: ${text.slice(0, 200)}`).toBe(expected);
  const body = JSON.parse(text) as Record<string, unknown>;
  expect(body, what).toEqual({
    code: 'NA',
    cause: 'A security-sensitive error has been received',
    correlationId: traceId,
    traceId,
    context: {},
    resources: [],
    errorCategory: -1,
    grpcCodeValue: expected === 401 ? 16 : 7,
    retryInfo: null,
    definiteAnswer: null,
  });
  // the sandbox serves its default line, 3.6
  if (specAvailable()) expect(specProblems(method, path.split('?')[0] as string, status, body, '3.6'), what).toEqual([]);
}

async function send(method: string, path: string, body: unknown, token: string | undefined) {
  const res = await request(`${sandbox.url}${path}`, {
    method: method as 'GET',
    headers: { traceparent, ...(token === undefined ? {} : { authorization: `Bearer ${token}` }), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.statusCode, text: await res.body.text() };
}

async function addUser(id: string, rights: unknown[], identityProviderId = '', isDeactivated = false): Promise<void> {
  const r = await send('POST', '/v2/users', { user: { id, primaryParty: '', isDeactivated, identityProviderId }, rights }, tokens['admin-root']);
  expect(r.status, r.text).toBe(200);
}
const right = (kind: string, party?: string) => ({ kind: { [kind]: { value: party === undefined ? {} : { party } } } }) as never;

beforeAll(async () => {
  sandbox = await startSandbox({ authSecret: secret, seed: 20, synchronizers: 2, listWaitMs: 10 });
  alice = sandbox.partyId('Alice');
  bob = sandbox.partyId('Bob');
  [synchronizer, otherSynchronizer] = sandbox.state.synchronizers.map((s) => s.id) as [string, string];
  identityProvidersOf(sandbox.state).add('idp-other');
  tokens['admin-root'] = await sandbox.token('participant_admin');
  await addUser('nobody', []);
  await addUser('alice-reader', [right('CanReadAs', alice)]);
  await addUser('alice-actor', [right('CanActAs', alice)]);
  await addUser('actor-plus', [right('CanActAs', alice), right('CanReadAs', bob)]);
  await addUser('any-reader', [right('CanReadAsAnyParty')]);
  await addUser('admin', [right('ParticipantAdmin')]);
  await addUser('acme-admin', [right('IdentityProviderAdmin')], 'idp-acme');
  await addUser('acme-user', [], 'idp-acme');
  await addUser('other-user', [], 'idp-other');
  await addUser('target', [right('CanReadAs', bob)]);
  await addUser('sleeper', [right('ParticipantAdmin'), right('CanReadAsAnyParty'), right('CanActAs', alice)], '', true);
  for (const u of users) tokens[u] = await sandbox.token(u);
  tokens['no token'] = '';
  tokens['bad signature'] = await sandbox.token('admin', { secret: 'another-secret' });
  tokens['expired token'] = await sandbox.token('admin', { expiresInSeconds: -60 });
  tokens['unknown user'] = await sandbox.token('ghost');
  tokens['deactivated user'] = await sandbox.token('sleeper');
  const created = await sandbox.submit({
    commands: [{ CreateCommand: { templateId: '#ledger-rx-demo:Iou:Iou', createArguments: { issuer: alice, owner: alice, currency: 'USD', amount: '1.0', observers: [] } } }],
    commandId: 'auth-setup',
    actAs: [alice],
  });
  contractId = created.contractIds[0] as string;
  const signed = await sandbox.submit(
    {
      commands: [{ CreateCommand: { templateId: '#ledger-rx-demo:Iou:Iou', createArguments: { issuer: alice, owner: alice, currency: 'USD', amount: '1.0', observers: [] } } }],
      commandId: 'auth-signed',
      actAs: [alice],
    },
    { externallySigned: true },
  );
  transactionHash = signed.transactionHash as string;
});
afterAll(async () => {
  await sandbox.close();
  reportFigures('auth-matrix', { httpAuthCases: cases, clientAuthCases: clientCases });
});

interface Operation {
  readonly name: string;
  readonly method: string;
  readonly path: string;
  readonly body?: () => unknown;
  /** The authenticated users allowed through (the others get the redacted 403); `'all'` for any user. */
  readonly allowed: readonly User[] | 'all';
}

const format = (parties: string[] | 'any') => ({
  includeTransactions: {
    eventFormat: parties === 'any' ? { filtersByParty: {}, filtersForAnyParty: { cumulative: [] } } : { filtersByParty: Object.fromEntries(parties.map((p) => [p, { cumulative: [] }])) },
    transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA',
  },
});
let n = 0;
const create = () => [{ CreateCommand: { templateId: '#ledger-rx-demo:Iou:Iou', createArguments: { issuer: alice, owner: alice, currency: 'USD', amount: '1.0', observers: [] } } }];
const unassign = (ef: string[]) => ({
  reassignmentCommands: { commandId: `ra-${++n}`, submitter: alice, commands: [{ command: { UnassignCommand: { value: { contractId, source: synchronizer, target: otherSynchronizer } } } }] },
  eventFormat: { filtersByParty: Object.fromEntries(ef.map((p) => [p, {}])) },
});
const vet = () => ({ changes: [{ operation: { Vet: { value: { packages: [{ packageName: 'ledger-rx-extras' }] } } } }], dryRun: true, synchronizerId: synchronizer });
const newUser = (idp: string, rights: unknown[] = []) => () => ({ user: { id: `new-${++n}`, primaryParty: '', isDeactivated: false, identityProviderId: idp }, rights });

const operations = (): Operation[] => [
  { name: 'ledger end', method: 'GET', path: '/v2/state/ledger-end', allowed: 'all' },
  { name: 'latest pruned offsets', method: 'GET', path: '/v2/state/latest-pruned-offsets', allowed: 'all' },
  { name: 'list packages', method: 'GET', path: '/v2/packages', allowed: 'all' },
  { name: 'list vetted packages', method: 'POST', path: '/v2/package-vetting/list', body: () => ({}), allowed: 'all' },
  { name: 'update vetting', method: 'POST', path: '/v2/package-vetting/update', body: vet, allowed: ['admin'] },
  { name: 'updates for Alice (ReadAs)', method: 'POST', path: '/v2/updates', body: () => ({ beginExclusive: 0, endInclusive: sandbox.ledgerEnd(), updateFormat: format([alice]) }), allowed: ['alice-reader', 'alice-actor', 'actor-plus', 'any-reader'] },
  { name: 'updates for Alice and Bob', method: 'POST', path: '/v2/updates', body: () => ({ beginExclusive: 0, endInclusive: sandbox.ledgerEnd(), updateFormat: format([alice, bob]) }), allowed: ['actor-plus', 'any-reader'] },
  { name: 'updates for any party (ReadAsAnyParty)', method: 'POST', path: '/v2/updates', body: () => ({ beginExclusive: 0, endInclusive: sandbox.ledgerEnd(), updateFormat: format('any') }), allowed: ['any-reader'] },
  {
    name: 'updates: reassignments of Bob',
    method: 'POST',
    path: '/v2/updates',
    body: () => ({ beginExclusive: 0, endInclusive: sandbox.ledgerEnd(), updateFormat: { ...format([alice]), includeReassignments: { filtersByParty: { [bob]: {} } } } }),
    allowed: ['actor-plus', 'any-reader'],
  },
  {
    name: 'updates: topology of Alice',
    method: 'POST',
    path: '/v2/updates',
    body: () => ({ beginExclusive: 0, endInclusive: sandbox.ledgerEnd(), updateFormat: { includeTopologyEvents: { includeParticipantAuthorizationEvents: { parties: [alice] } } } }),
    allowed: ['alice-reader', 'alice-actor', 'actor-plus', 'any-reader'],
  },
  {
    name: 'updates: topology of every party',
    method: 'POST',
    path: '/v2/updates',
    body: () => ({ beginExclusive: 0, endInclusive: sandbox.ledgerEnd(), updateFormat: { includeTopologyEvents: { includeParticipantAuthorizationEvents: { parties: [] } } } }),
    allowed: ['any-reader'],
  },
  {
    name: 'updates (legacy filter for Alice)',
    method: 'POST',
    path: '/v2/updates',
    body: () => ({ beginExclusive: 0, endInclusive: sandbox.ledgerEnd(), filter: { filtersByParty: { [alice]: {} } }, verbose: true }),
    allowed: ['alice-reader', 'alice-actor', 'actor-plus', 'any-reader'],
  },
  { name: 'update by hash for Alice (ReadAs)', method: 'POST', path: '/v2/updates/update-by-hash', body: () => ({ transactionHash, updateFormat: format([alice]) }), allowed: ['alice-reader', 'alice-actor', 'actor-plus', 'any-reader'] },
  { name: 'completion by hash (any readable party)', method: 'POST', path: '/v2/commands/completion-by-hash', body: () => ({ transactionHash }), allowed: ['alice-reader', 'alice-actor', 'actor-plus', 'any-reader'] },
  { name: 'submit as Alice (ActAs)', method: 'POST', path: '/v2/commands/async/submit', body: () => ({ commands: create(), commandId: `c-${++n}`, actAs: [alice] }), allowed: ['alice-actor', 'actor-plus'] },
  { name: 'submit as Alice reading as Bob (ReadAs)', method: 'POST', path: '/v2/commands/async/submit', body: () => ({ commands: create(), commandId: `c-${++n}`, actAs: [alice], readAs: [bob] }), allowed: ['actor-plus'] },
  { name: 'submit for another user id', method: 'POST', path: '/v2/commands/async/submit', body: () => ({ commands: create(), commandId: `c-${++n}`, actAs: [alice], userId: 'someone-else' }), allowed: [] },
  { name: 'reassignment as Alice', method: 'POST', path: '/v2/commands/submit-and-wait-for-reassignment', body: () => unassign([alice]), allowed: ['alice-actor', 'actor-plus'] },
  { name: 'reassignment showing Bob', method: 'POST', path: '/v2/commands/submit-and-wait-for-reassignment', body: () => unassign([bob]), allowed: ['actor-plus'] },
  { name: 'allocate party (default IDP)', method: 'POST', path: '/v2/parties', body: () => ({ partyIdHint: `P${++n}`, synchronizerId: synchronizer }), allowed: ['admin'] },
  { name: 'allocate party (idp-acme)', method: 'POST', path: '/v2/parties', body: () => ({ partyIdHint: `P${++n}`, synchronizerId: synchronizer, identityProviderId: 'idp-acme' }), allowed: ['admin', 'acme-admin'] },
  { name: 'list parties', method: 'GET', path: '/v2/parties', allowed: ['admin'] },
  { name: 'list parties (idp-acme)', method: 'GET', path: '/v2/parties?identity-provider-id=idp-acme', allowed: ['admin', 'acme-admin'] },
  { name: 'create user', method: 'POST', path: '/v2/users', body: newUser(''), allowed: ['admin'] },
  { name: 'create user in idp-acme', method: 'POST', path: '/v2/users', body: newUser('idp-acme'), allowed: ['admin', 'acme-admin'] },
  { name: 'create an admin in idp-acme', method: 'POST', path: '/v2/users', body: newUser('idp-acme', [right('ParticipantAdmin')]), allowed: ['admin'] },
  { name: 'list users', method: 'GET', path: '/v2/users', allowed: ['admin', 'acme-admin'] },
  { name: 'get user', method: 'GET', path: '/v2/users/target', allowed: ['admin'] },
  { name: 'delete user', method: 'DELETE', path: '/v2/users/no-such-user', allowed: ['admin', 'acme-admin'] },
  { name: 'update user', method: 'PATCH', path: '/v2/users/target', body: () => ({ user: { id: 'target', isDeactivated: false }, updateMask: { paths: ['is_deactivated'] } }), allowed: ['admin'] },
  { name: 'list rights', method: 'GET', path: '/v2/users/target/rights', allowed: ['admin'] },
  { name: 'grant rights', method: 'POST', path: '/v2/users/target/rights', body: () => ({ userId: 'target', rights: [right('CanReadAs', alice)] }), allowed: ['admin'] },
  { name: 'grant ParticipantAdmin', method: 'POST', path: '/v2/users/acme-user/rights', body: () => ({ userId: 'acme-user', rights: [right('ParticipantAdmin')], identityProviderId: 'idp-acme' }), allowed: ['admin'] },
  { name: 'revoke rights', method: 'PATCH', path: '/v2/users/target/rights', body: () => ({ userId: 'target', rights: [right('CanExecuteAs', alice)] }), allowed: ['admin'] },
  { name: 'authenticated user', method: 'GET', path: '/v2/authenticated-user', allowed: 'all' },
];

describe('raw HTTP: every operation × every failed authentication and missing right', () => {
  it.each(operations().map((o) => [o.name, o] as const))('%s', async (_name, op) => {
    const denied: [string, 401 | 403][] = [...failedAuth, ...users.filter((u) => op.allowed !== 'all' && !op.allowed.includes(u)).map((u): [string, 403] => [u, 403])];
    for (const [identity, expected] of denied) {
      const before = snapshot();
      const token = tokens[identity] || undefined;
      const r = await send(op.method, op.path, op.body?.(), token);
      expectRedacted(r.status, r.text, expected, `${op.method} ${op.path} as ${identity}`, op.method, op.path);
      expect(snapshot(), `${op.name} as ${identity} changed nothing`).toBe(before);
      cases++;
    }
    // the allowed users get through (the matrix is not vacuous)
    for (const identity of op.allowed === 'all' ? users : op.allowed) {
      const r = await send(op.method, op.path, op.body?.(), tokens[identity]);
      expect([401, 403], `${op.name} as ${identity}: ${r.text.slice(0, 200)}`).not.toContain(r.status);
      expect(r.status, `${op.name} as ${identity}: ${r.text.slice(0, 200)}`).toBeLessThan(500);
    }
  });

  it('GET /v2/version needs no token, even a bad one', async () => {
    for (const [identity] of failedAuth) expect((await send('GET', '/v2/version', undefined, tokens[identity] || undefined)).status).toBe(200);
  });

  it('the token may also come in Sec-WebSocket-Protocol, with the same redaction', async () => {
    const before = snapshot();
    const res = await request(`${sandbox.url}/v2/package-vetting/update`, {
      method: 'POST',
      headers: { traceparent, 'content-type': 'application/json', 'sec-websocket-protocol': `daml.ws.auth, jwt.token.${tokens['nobody']}` },
      body: JSON.stringify(vet()),
    });
    expectRedacted(res.statusCode, await res.body.text(), 403, 'vetting update via Sec-WebSocket-Protocol as nobody', 'POST', '/v2/package-vetting/update');
    expect(snapshot()).toBe(before);
    cases++;
  });
});

describe('rules beyond rights', () => {
  it('a caller cannot revoke its own admin right (INVALID_ARGUMENT), and nothing changes', async () => {
    for (const id of ['admin', 'participant_admin']) {
      const before = snapshot();
      const token = id === 'admin' ? tokens['admin'] : tokens['admin-root'];
      const r = await send('PATCH', `/v2/users/${id}/rights`, { userId: id, rights: [right('ParticipantAdmin')] }, token);
      expect(r.status, r.text).toBe(400);
      expect(JSON.parse(r.text)).toMatchObject({ code: 'INVALID_ARGUMENT', cause: expect.stringContaining('Requesting user cannot remove own admin rights') });
      expect(snapshot()).toBe(before);
      expect(sandbox.state.users.get(id)?.rights.has('ParticipantAdmin')).toBe(true);
      cases++;
    }
    const client = createLedgerClient({ baseUrl: sandbox.url, token: tokens['admin'] as string });
    await expect(client.revokeUserRights('admin', { userId: 'admin', rights: [right('ParticipantAdmin')] })).rejects.toMatchObject({ name: 'LedgerApiError', status: 400, code: 'INVALID_ARGUMENT' });
    await client.close();
    // another admin may revoke it (positive control)
    await addUser('short-lived-admin', [right('ParticipantAdmin')]);
    const ok = await send('PATCH', '/v2/users/short-lived-admin/rights', { userId: 'short-lived-admin', rights: [right('ParticipantAdmin')] }, tokens['admin']);
    expect(ok.status, ok.text).toBe(200);
  });

  it('an IDP admin cannot touch the users of another identity provider (or of the default one)', async () => {
    const acme = tokens['acme-admin'];
    const attempts: [string, string, unknown][] = [];
    for (const [user, idp] of [['other-user', 'idp-other'], ['target', '']] as const) {
      const q = idp === '' ? '' : `?identity-provider-id=${idp}`;
      attempts.push(
        ['GET', `/v2/users/${user}${q}`, undefined],
        ['GET', `/v2/users/${user}/rights`, undefined],
        ['PATCH', `/v2/users/${user}`, { user: { id: user, isDeactivated: true, identityProviderId: idp }, updateMask: { paths: ['is_deactivated'] } }],
        ['POST', `/v2/users/${user}/rights`, { userId: user, rights: [right('CanReadAs', alice)], identityProviderId: idp }],
        ['PATCH', `/v2/users/${user}/rights`, { userId: user, rights: [right('CanReadAs', bob)], identityProviderId: idp }],
        ['POST', '/v2/users', { user: { id: `intruder-${user}`, primaryParty: '', isDeactivated: false, identityProviderId: idp }, rights: [] }],
      );
    }
    for (const [method, path, body] of attempts) {
      const before = snapshot();
      const r = await send(method, path, body, acme);
      expect([403, 404], `${method} ${path}: ${r.text.slice(0, 200)}`).toContain(r.status);
      if (r.status === 403) expectRedacted(r.status, r.text, 403, `${method} ${path} as acme-admin`, method, path);
      expect(snapshot(), `${method} ${path}`).toBe(before);
      cases++;
    }
    // listing users shows an IDP admin its own IDP's users only (GET /v2/users names no IDP)
    const list = await send('GET', '/v2/users?identity-provider-id=idp-other', undefined, acme);
    expect(list.status).toBe(200);
    const listed = (JSON.parse(list.text) as { users: { id: string; identityProviderId: string }[] }).users;
    expect(listed.map((u) => u.id)).toContain('acme-user');
    expect(listed.filter((u) => u.identityProviderId !== 'idp-acme')).toEqual([]);
    expect(sandbox.state.users.get('other-user')?.isDeactivated).toBe(false);
    expect(sandbox.state.users.get('target')?.isDeactivated).toBe(false);
    // positive control: its own IDP's user
    const allocated = await send('POST', '/v2/parties', { partyIdHint: 'AcmeParty', synchronizerId: synchronizer, identityProviderId: 'idp-acme' }, acme);
    expect(allocated.status, allocated.text).toBe(200);
    const acmeParty = (JSON.parse(allocated.text) as { partyDetails: { party: string } }).partyDetails.party;
    const granted = await send('POST', '/v2/users/acme-user/rights', { userId: 'acme-user', rights: [right('CanReadAs', acmeParty)], identityProviderId: 'idp-acme' }, acme);
    expect(granted.status, granted.text).toBe(200);
    expect(sandbox.state.users.get('acme-user')?.rights.has(`CanReadAs:${acmeParty}`)).toBe(true);
    const get = await send('GET', '/v2/users/acme-user?identity-provider-id=idp-acme', undefined, acme);
    expect(get.status, get.text).toBe(200);
  });
});

describe('through the client: typed redacted errors, no token in them', () => {
  const calls = (): [string, (c: LedgerClient) => unknown, User][] => [
    ['listVettedPackages', (c) => c.listVettedPackages({}), 'nobody'],
    ['listAllVettedPackages', (c) => c.listAllVettedPackages({}), 'nobody'],
    ['updateVettedPackages', (c) => c.updateVettedPackages(vet()), 'any-reader'],
    ['updates', (c) => c.updates({ beginExclusive: 0, endInclusive: sandbox.ledgerEnd(), updateFormat: format([alice]) } as never), 'nobody'],
    ['iterateUpdates', (c) => c.iterateUpdates({ beginExclusive: 0, endInclusive: sandbox.ledgerEnd(), updateFormat: format('any') } as never), 'alice-actor'],
    ['submit', (c) => c.submit({ commands: create(), commandId: `cc-${++n}`, actAs: [alice] } as never), 'alice-reader'],
    ['submitAndWaitForReassignment', (c) => c.submitAndWaitForReassignment(unassign([alice]) as never), 'any-reader'],
    ['updateUser', (c) => c.updateUser('target', { user: { id: 'target', isDeactivated: true }, updateMask: { paths: ['is_deactivated'] } }), 'acme-admin'],
    ['revokeUserRights', (c) => c.revokeUserRights('target', { userId: 'target', rights: [right('CanReadAs', bob)] }), 'acme-admin'],
    ['grantUserRights', (c) => c.grantUserRights('target', { userId: 'target', rights: [right('ParticipantAdmin')] }), 'any-reader'],
    ['createUser', (c) => c.createUser(newUser('')() as never), 'nobody'],
    ['getUser', (c) => c.getUser('target'), 'nobody'],
    ['listUserRights', (c) => c.listUserRights('target'), 'alice-actor'],
    ['allocateParty', (c) => c.allocateParty({ partyIdHint: `Q${++n}`, synchronizerId: synchronizer }), 'acme-admin'],
    ['listParties', (c) => c.listParties(), 'any-reader'],
    ['ledgerEnd', (c) => c.ledgerEnd(), 'nobody'],
    ['latestPrunedOffsets', (c) => c.latestPrunedOffsets(), 'nobody'],
    ['listPackages', (c) => c.listPackages(), 'nobody'],
  ];
  /** Operations any authenticated user may call: only failed authentication is denied. */
  const open = new Set(['listVettedPackages', 'listAllVettedPackages', 'ledgerEnd', 'latestPrunedOffsets', 'listPackages']);

  async function outcome(result: unknown): Promise<unknown> {
    try {
      if (isObservable(result)) await lastValueFrom(result, { defaultValue: undefined });
      else if (result && typeof (result as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function') {
        for await (const _ of result as AsyncIterable<unknown>) void _;
      } else await result;
      return undefined;
    } catch (error) {
      return error;
    }
  }

  it.each(calls().map(([name, call, weak]) => [name, call, weak] as const))('%s', async (name, call, weak) => {
    const identities: [string, 401 | 403][] = [...failedAuth, ...(open.has(name) ? [] : [[weak, 403] as [string, 403]])];
    for (const [identity, expected] of identities) {
      for (const provider of [false, true]) {
        const token = tokens[identity] as string;
        let provided = 0;
        const client = createLedgerClient({
          baseUrl: sandbox.url,
          headers: { traceparent },
          participantVersion: '3.6.0-SNAPSHOT', // known: the token calls counted below are the operation's own
          ...(token === '' ? {} : { token: provider ? () => (provided++, token) : token }),
        });
        const before = snapshot();
        const error = await outcome(call(client));
        await client.close();
        const what = `${name} as ${identity}${provider ? ' (provider)' : ''}`;
        expect(error, what).toBeInstanceOf(LedgerApiError);
        expect(error, what).toMatchObject({
          code: 'NA',
          status: expected,
          grpcCodeValue: expected === 401 ? 16 : 7,
          errorCategory: -1,
          retryable: false,
          cantonCause: 'A security-sensitive error has been received',
          traceId,
          context: {},
          resources: [],
        });
        // a provider gets one retry (a fresh token) after a 401, and after a 403 for a token that had expired;
        // none after any other 403
        if (provider && token !== '') expect(provided, what).toBe(expected === 401 || identity === 'expired token' ? 2 : 1);
        if (token !== '') {
          expect(inspect(error, { depth: 10 }), `${what}: no token in the error`).not.toContain(token);
          expect(String((error as Error).stack)).not.toContain(token);
        }
        expect(snapshot(), what).toBe(before);
        clientCases++;
      }
    }
  });
});
