import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { call } from '../support/sandbox-http.js';
import { createUser, expectError, stateSnapshot, testSecret } from './auth-test-kit.js';

/**
 * A JSON object used as a map keeps every key, `__proto__` included (JSON.parse makes it an own
 * property; a plain `{}` target would drop it or, worse, take it as its prototype). The key then meets
 * the same validation as any other key. Bodies are sent raw: a JS object literal cannot hold such a key.
 */

let authed: Sandbox;
let open: Sandbox;
let admin: string;

beforeAll(async () => {
  [authed, open] = await Promise.all([startSandbox({ authSecret: testSecret }), startSandbox({ listWaitMs: 20 })]);
  admin = await authed.token('participant_admin');
  await createUser(authed, 'alice', { annotations: { team: 'blue' } });
});
afterAll(() => Promise.all([authed.close(), open.close()]));

/** The comparable part of an error body (no trace ids). */
const errorOf = (json: unknown) => {
  const { code, cause, errorCategory, grpcCodeValue } = json as Record<string, unknown>;
  return { code, cause, errorCategory, grpcCodeValue };
};

describe('user annotations', () => {
  const createBody = (key: string) => `{"user":{"id":"dan","metadata":{"annotations":{${JSON.stringify(key)}:"x","ok":"1"}}},"rights":[]}`;
  const patchBody = (key: string) => `{"user":{"id":"alice","metadata":{"annotations":{${JSON.stringify(key)}:"x"}}},"updateMask":{"paths":["metadata.annotations"]}}`;

  it('POST /v2/users validates a __proto__ key like any other key (invalid syntax)', async () => {
    const before = stateSnapshot(authed);
    const proto = expectError(await call(authed.url, 'POST', '/v2/users', { token: admin, rawBody: createBody('__proto__') }), 400, 'INVALID_ARGUMENT');
    const bad = expectError(await call(authed.url, 'POST', '/v2/users', { token: admin, rawBody: createBody('_bad') }), 400, 'INVALID_ARGUMENT');
    expect(proto.cause).toBe(bad.cause.replace('_bad', '__proto__'));
    expect(proto.cause).toContain("Key name segment '__proto__' has invalid syntax");
    expect(stateSnapshot(authed)).toBe(before);
  });

  it('PATCH /v2/users/{id} validates a __proto__ key like any other key', async () => {
    const before = stateSnapshot(authed);
    const proto = expectError(await call(authed.url, 'PATCH', '/v2/users/alice', { token: admin, rawBody: patchBody('__proto__') }), 400, 'INVALID_ARGUMENT');
    const bad = expectError(await call(authed.url, 'PATCH', '/v2/users/alice', { token: admin, rawBody: patchBody('_bad') }), 400, 'INVALID_ARGUMENT');
    expect(proto.cause).toBe(bad.cause.replace('_bad', '__proto__'));
    expect(stateSnapshot(authed)).toBe(before);
  });

  it('keeps keys named like Object.prototype members, through create, merge and rendering', async () => {
    const created = await call(authed.url, 'POST', '/v2/users', {
      token: admin,
      rawBody: '{"user":{"id":"erin","metadata":{"annotations":{"constructor":"c","toString":"t"}}},"rights":[]}',
    });
    expect(created.status, created.text).toBe(200);
    const patched = await call(authed.url, 'PATCH', '/v2/users/erin', {
      token: admin,
      rawBody: '{"user":{"id":"erin","metadata":{"annotations":{"hasOwnProperty":"h","toString":""}}},"updateMask":{"paths":["metadata.annotations"]}}',
    });
    expect(patched.status, patched.text).toBe(200);
    const got = await call(authed.url, 'GET', '/v2/users/erin', { token: admin });
    expect(JSON.parse(got.text).user.metadata.annotations).toEqual({ constructor: 'c', hasOwnProperty: 'h' });
  });

  it('stores a user whose id is __proto__', async () => {
    expect((await call(authed.url, 'POST', '/v2/users', { token: admin, rawBody: '{"user":{"id":"__proto__"},"rights":[]}' })).status).toBe(200);
    const got = await call(authed.url, 'GET', '/v2/users/__proto__', { token: admin });
    expect(JSON.parse(got.text).user.id).toBe('__proto__');
  });
});

describe('filtersByParty', () => {
  const format = (key: string) => `{"filtersByParty":{${JSON.stringify(key)}:{}},"verbose":false}`;
  const post = (s: Sandbox, raw: string, token?: string) => call(s.url, 'POST', '/v2/updates', { rawBody: raw, ...(token === undefined ? {} : { token }) });

  it.each([
    ['updateFormat.includeTransactions', (ef: string) => `{"updateFormat":{"includeTransactions":{"eventFormat":${ef},"transactionShape":"TRANSACTION_SHAPE_ACS_DELTA"}}}`],
    ['updateFormat.includeReassignments', (ef: string) => `{"updateFormat":{"includeReassignments":${ef}}}`],
    ['the legacy filter', (ef: string) => `{"filter":${ef}}`],
  ])('a __proto__ party key in %s is a party like any other (an unknown one: no updates)', async (_where, body) => {
    const proto = await post(open, body(format('__proto__')));
    const other = await post(open, body(format('nobody')));
    expect(other.status, other.text).toBe(200);
    expect({ status: proto.status, json: proto.json }).toEqual({ status: other.status, json: other.json });
  });

  it('a __proto__ party key with a syntax error is refused like any other invalid party', async () => {
    const body = (key: string) => `{"updateFormat":{"includeTransactions":{"eventFormat":${format(key)},"transactionShape":"TRANSACTION_SHAPE_ACS_DELTA"}}}`;
    const proto = await post(open, body('__proto__!'));
    const other = await post(open, body('nobody!'));
    expect(errorOf(proto.json)).toEqual({ ...errorOf(other.json), cause: String(errorOf(other.json).cause).replace('nobody!', '__proto__!') });
    expect(errorOf(proto.json).code).toBe('INVALID_ARGUMENT');
  });

  it('needs a read right for a __proto__ party, like for any other party', async () => {
    const reader = await authed.token('participant_admin');
    const body = (key: string) => `{"updateFormat":{"includeTransactions":{"eventFormat":${format(key)},"transactionShape":"TRANSACTION_SHAPE_ACS_DELTA"}}}`;
    expect((await post(authed, body('__proto__'), reader)).status).toBe(403);
    expect((await post(authed, body('nobody'), reader)).status).toBe(403);
  });
});

describe('party annotations', () => {
  const allocateBody = (hint: string, key: string) => `{"partyIdHint":"${hint}","localMetadata":{"resourceVersion":"","annotations":{${JSON.stringify(key)}:"x","ok":"1"}}}`;

  it('POST /v2/parties validates a __proto__ key like any other key (invalid syntax), allocating nothing', async () => {
    const end = open.ledgerEnd();
    const proto = expectError(await call(open.url, 'POST', '/v2/parties', { rawBody: allocateBody('Proto', '__proto__') }), 400, 'INVALID_ARGUMENT');
    const bad = expectError(await call(open.url, 'POST', '/v2/parties', { rawBody: allocateBody('Proto', '_bad') }), 400, 'INVALID_ARGUMENT');
    expect(proto.cause).toBe(bad.cause.replace('_bad', '__proto__'));
    expect(open.ledgerEnd()).toBe(end);
  });

  it('keeps and renders keys named like Object.prototype members', async () => {
    const r = await call(open.url, 'POST', '/v2/parties', { rawBody: allocateBody('Proto', 'constructor') });
    expect(r.status, r.text).toBe(200);
    expect(r.text).toContain('"annotations":{"constructor":"x","ok":"1"}');
    const listed = await call(open.url, 'GET', '/v2/parties');
    expect(listed.text).toContain('"annotations":{"constructor":"x","ok":"1"}');
  });
});
