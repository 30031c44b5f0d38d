import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { call } from '../support/sandbox-http.js';
import { ACS, addUser, checkAgainstLog, createIou, eventFormat, postUpdates, updateFormat, type Visibility } from './ledger-support.js';

let sandbox: Sandbox;
let alice: string;
let bob: string;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  sandbox = await startSandbox({ authSecret: 'test-secret', seed: 10, synchronizers: 2, listWaitMs: 50 });
  alice = sandbox.partyId('Alice');
  bob = sandbox.partyId('Bob');
  addUser(sandbox, 'alice', [{ kind: 'CanActAs', party: alice }]);
  addUser(sandbox, 'bob-reader', [{ kind: 'CanReadAs', party: bob }]);
  addUser(sandbox, 'reader-any', [{ kind: 'CanReadAsAnyParty' }]);
  addUser(sandbox, 'nobody', []);
  addUser(sandbox, 'idp-admin', [{ kind: 'IdentityProviderAdmin' }]);
  for (const u of ['alice', 'bob-reader', 'reader-any', 'nobody', 'participant_admin', 'idp-admin']) tokens[u] = await sandbox.token(u);
  tokens['expired'] = await sandbox.token('alice', { expiresInSeconds: -60 });
  tokens['forged'] = await sandbox.token('alice', { secret: 'other-secret' });
});
afterAll(() => sandbox.close());

const redacted = (status: 401 | 403) => ({ code: 'NA', errorCategory: -1, grpcCodeValue: status === 401 ? 16 : 7, context: {}, resources: [] });

describe('POST /v2/updates authorization (docs/server-behavior.md#authentication-and-authorization, step 3 of #updates-validation-order)', () => {
  const end = () => sandbox.ledgerEnd();
  const rows: { name: string; token?: string; format: () => Record<string, unknown>; status: number; visible?: () => Visibility }[] = [
    { name: 'no token', format: () => updateFormat([alice]), status: 401 },
    { name: 'forged token', token: 'forged', format: () => updateFormat([alice]), status: 401 },
    { name: 'expired token', token: 'expired', format: () => updateFormat([alice]), status: 403 },
    { name: 'ReadAs via CanActAs', token: 'alice', format: () => updateFormat([alice]), status: 200, visible: () => ({ transactions: { shape: ACS, parties: [alice] } }) },
    { name: 'a party without rights', token: 'alice', format: () => updateFormat([alice, bob]), status: 403 },
    { name: 'CanReadAs', token: 'bob-reader', format: () => updateFormat([bob]), status: 200, visible: () => ({ transactions: { shape: ACS, parties: [bob] } }) },
    { name: 'any party without CanReadAsAnyParty', token: 'alice', format: () => updateFormat('any'), status: 403 },
    { name: 'any party with CanReadAsAnyParty', token: 'reader-any', format: () => updateFormat('any'), status: 200, visible: () => ({ transactions: { shape: ACS, parties: 'any' } }) },
    { name: 'admin has no party rights', token: 'participant_admin', format: () => updateFormat([alice]), status: 403 },
    { name: 'reassignment parties count', token: 'alice', format: () => ({ ...updateFormat([alice]), includeReassignments: eventFormat([bob]) }), status: 403 },
    { name: 'topology parties need ReadAs', token: 'bob-reader', format: () => ({ includeTopologyEvents: { includeParticipantAuthorizationEvents: { parties: [alice] } } }), status: 403 },
    { name: 'all topology events need ReadAsAnyParty', token: 'alice', format: () => ({ includeTopologyEvents: { includeParticipantAuthorizationEvents: { parties: [] } } }), status: 403 },
    { name: 'a format naming no party needs no right', token: 'nobody', format: () => ({}), status: 200, visible: () => ({}) },
  ];

  it.each(rows)('$name → $status', async ({ token, format, status, visible }) => {
    const r = await postUpdates(sandbox, { beginExclusive: 0, endInclusive: end(), updateFormat: format() }, '', token ? { token: tokens[token] as string } : {});
    expect(r.status, r.text).toBe(status);
    if (status !== 200) expect(r.json).toMatchObject(redacted(status as 401 | 403));
    else checkAgainstLog(sandbox, r.json, visible?.() ?? {}, { beginExclusive: 0, endInclusive: end() });
  });

  it('checks authorization after the JSON layer (step 2) and before the offsets (step 4)', async () => {
    const conflict = await postUpdates(sandbox, { updateFormat: updateFormat([alice]), filter: { filtersByParty: {} } });
    expect(conflict.json).toMatchObject({ code: 'INVALID_ARGUMENT' });
    const negative = await postUpdates(sandbox, { beginExclusive: -1, updateFormat: updateFormat([alice]) });
    expect(negative.status).toBe(401);
    const undecodable = await postUpdates(sandbox, { beginExclusive: 'x' });
    expect(undecodable.status).toBe(400);
    expect(undecodable.contentType).toMatch(/^text\/plain/);
  });

  it('accepts the token from Sec-WebSocket-Protocol too', async () => {
    const r = await postUpdates(sandbox, { beginExclusive: 0, endInclusive: end(), updateFormat: updateFormat([alice]) }, '', {
      headers: { 'sec-websocket-protocol': `daml.ws.auth, jwt.token.${tokens['alice']}` },
    });
    expect(r.status).toBe(200);
    checkAgainstLog(sandbox, r.json, { transactions: { shape: ACS, parties: [alice] } }, { beginExclusive: 0, endInclusive: end() });
  });
});

describe('command authorization', () => {
  let n = 0;
  const body = (overrides: Record<string, unknown> = {}) => ({ commands: [createIou(alice, bob)], commandId: `auth-${++n}`, actAs: [alice], ...overrides });
  const submit = (b: unknown, token?: string) => call(sandbox.url, 'POST', '/v2/commands/async/submit', { body: b, ...(token ? { token: tokens[token] as string } : {}) });

  it.each([
    { name: 'no token', token: undefined, overrides: () => ({}), status: 401 },
    { name: 'user id from the token', token: 'alice', overrides: () => ({}), status: 200 },
    { name: 'the same user id', token: 'alice', overrides: () => ({ userId: 'alice' }), status: 200 },
    { name: 'another user id', token: 'alice', overrides: () => ({ userId: 'mallory' }), status: 403 },
    { name: 'actAs without CanActAs', token: 'bob-reader', overrides: () => ({ actAs: [bob], commands: [createIou(bob, bob)] }), status: 403 },
    { name: 'readAs without rights', token: 'alice', overrides: () => ({ readAs: [bob] }), status: 403 },
  ])('async submit: $name → $status', async ({ token, overrides, status }) => {
    const r = await submit(body(overrides()), token);
    expect(r.status, r.text).toBe(status);
    if (status >= 401) expect(r.json).toMatchObject(redacted(status as 401 | 403));
  });

  it('async submit resolves packages (step 2) before authorizing', async () => {
    const r = await submit(body({ commands: [{ CreateCommand: { templateId: '#ledger-rx-demo:Iou:Nope', createArguments: {} } }] }));
    expect(r.status).toBe(404);
    expect(r.json).toMatchObject({ code: 'TEMPLATES_OR_INTERFACES_NOT_FOUND' });
  });

  it('a transaction submitted with a token records the token user and shows the commandId to its parties', async () => {
    const before = sandbox.ledgerEnd();
    expect((await submit(body({ commandId: 'mine' }), 'alice')).status).toBe(200);
    const r = await postUpdates(sandbox, { beginExclusive: before, endInclusive: sandbox.ledgerEnd(), updateFormat: updateFormat([alice]) }, '', { token: tokens['alice'] as string });
    const [element] = checkAgainstLog(sandbox, r.json, { transactions: { shape: ACS, parties: [alice] } }, { beginExclusive: before, endInclusive: sandbox.ledgerEnd() });
    expect(element?.value['commandId']).toBe('mine');
  });

  it('submit-and-wait-for-reassignment needs ActAs(submitter) and the read claims of the event format', async () => {
    const [sync0, sync1] = sandbox.state.synchronizers.map((s) => s.id) as [string, string];
    const cid = (await sandbox.submit({ commands: [createIou(alice, bob)], commandId: `auth-${++n}`, actAs: [alice] })).contractIds[0] as string;
    const request = (submitter: string, ef?: unknown) => ({
      reassignmentCommands: { commandId: `ra-${++n}`, submitter, commands: [{ command: { UnassignCommand: { value: { contractId: cid, source: sync0, target: sync1 } } } }] },
      ...(ef === undefined ? {} : { eventFormat: ef }),
    });
    const post = (b: unknown, token?: string) => call(sandbox.url, 'POST', '/v2/commands/submit-and-wait-for-reassignment', { body: b, ...(token ? { token: tokens[token] as string } : {}) });
    expect((await post(request(alice))).status).toBe(401);
    expect((await post(request(bob), 'bob-reader')).status).toBe(403);
    expect((await post(request(alice, eventFormat([bob])), 'alice')).status).toBe(403);
    expect((await post(request(''), 'alice')).status).toBe(403);
    const ok = await post(request(alice, eventFormat([alice])), 'alice');
    expect(ok.status, ok.text).toBe(200);
    expect(ok.json).toMatchObject({ reassignment: { events: [{ JsUnassignedEvent: { value: { contractId: cid, witnessParties: [alice] } } }] } });
  });
});

describe('party and state route authorization', () => {
  it.each([
    { token: undefined, status: 401 },
    { token: 'alice', status: 403 },
    { token: 'idp-admin', status: 200 },
    { token: 'participant_admin', status: 200 },
  ])('parties need an admin or IDP admin ($token → $status)', async ({ token, status }) => {
    const auth = token ? { token: tokens[token] as string } : {};
    const list = await call(sandbox.url, 'GET', '/v2/parties', auth);
    expect(list.status).toBe(status);
    const allocate = await call(sandbox.url, 'POST', '/v2/parties', { body: { partyIdHint: `P-${token ?? 'none'}`, synchronizerId: sandbox.state.synchronizers[0]?.id }, ...auth });
    expect(allocate.status).toBe(status);
    if (status !== 200) expect(allocate.json).toMatchObject(redacted(status as 401 | 403));
  });

  it.each(['/v2/state/ledger-end', '/v2/state/latest-pruned-offsets'])('%s needs any authenticated user', async (path) => {
    expect((await call(sandbox.url, 'GET', path)).status).toBe(401);
    expect((await call(sandbox.url, 'GET', path, { token: tokens['expired'] as string })).status).toBe(403);
    expect((await call(sandbox.url, 'GET', path, { token: tokens['nobody'] as string })).status).toBe(200);
  });
});
