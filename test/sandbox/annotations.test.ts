import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { call } from '../support/sandbox-http.js';
import { expectError, stateSnapshot, testSecret, type ErrorBody } from './auth-test-kit.js';

/**
 * Annotations of users (`POST /v2/users`, `PATCH /v2/users/{id}`) and parties (`POST /v2/parties`), checked
 * by one validator as the server's `ResourceAnnotationValidator` checks them: size of the non-empty-valued
 * entries first, then the key syntax, then empty values (refused on create only).
 */

let sandbox: Sandbox;
let admin: string;

beforeAll(async () => {
  sandbox = await startSandbox({ authSecret: testSecret });
  admin = await sandbox.token('participant_admin');
});
afterAll(() => sandbox.close());

const limit = 256 * 1024;
let serial = 0;

const createUser = (annotations: Record<string, string>, id = `user-${++serial}`) =>
  call(sandbox.url, 'POST', '/v2/users', { token: admin, body: { user: { id, metadata: { resourceVersion: '', annotations } }, rights: [] } });

// Each test updates its own fresh user, created before the test (and before any state snapshot).
let target = '';
beforeEach(async () => {
  target = `target-${++serial}`;
  expect((await createUser({}, target)).status).toBe(200);
});

const updateUser = (annotations: Record<string, string>) =>
  call(sandbox.url, 'PATCH', `/v2/users/${target}`, {
    token: admin,
    body: { user: { id: target, metadata: { resourceVersion: '', annotations } }, updateMask: { paths: ['metadata.annotations'] } },
  });

const allocate = (body: Record<string, unknown>) => call(sandbox.url, 'POST', '/v2/parties', { token: admin, body: { partyIdHint: `P${++serial}`, ...body } });
const partyAnnotations = (annotations: Record<string, string>) => allocate({ localMetadata: { resourceVersion: '', annotations } });

/** The three requests that validate annotations, each to answer the same. */
const routes: [string, (annotations: Record<string, string>) => ReturnType<typeof call>][] = [
  ['POST /v2/users', createUser],
  ['PATCH /v2/users/{id}', updateUser],
  ['POST /v2/parties', partyAnnotations],
];

/** Asserts a rejected request left users, vetting and the ledger unchanged; returns its error. */
async function rejected(send: () => ReturnType<typeof call>, code = 'INVALID_ARGUMENT'): Promise<ErrorBody> {
  const before = stateSnapshot(sandbox);
  const end = sandbox.ledgerEnd();
  const parties = sandbox.state.parties.all().length;
  const e = expectError(await send(), 400, code);
  expect(stateSnapshot(sandbox)).toBe(before);
  expect(sandbox.ledgerEnd()).toBe(end);
  expect(sandbox.state.parties.all().length).toBe(parties);
  return e;
}

const invalidArgument = (reason: string) => `The submitted request has invalid arguments: ${reason}`;

describe.each(routes)('%s annotation keys', (_route, send) => {
  it.each([
    'team',
    'a',
    'a.b-c_d',
    'example.com/team',
    'Example.COM/key',
    'EXAMPLE/Key',
    'Ex-ample.COM/Team',
    'team/', // Java's split drops the trailing empty part
    'a//',
    'n'.repeat(63),
    `${'p'.repeat(253)}/n`,
    `${'a'.repeat(63)}.${'b'.repeat(63)}/x`,
  ])('accepts %s', async (key) => {
    const r = await send({ [key]: 'v' });
    expect(r.status, r.text).toBe(200);
  });

  it.each([
    ['', "Key name segment '' has invalid syntax"],
    ['-team', "Key name segment '-team' has invalid syntax"],
    ['team-', "Key name segment 'team-' has invalid syntax"],
    ['a b', "Key name segment 'a b' has invalid syntax"],
    ['ü', "Key name segment 'ü' has invalid syntax"],
    ['a/b/c', "Key 'a/b/c' contains more than one forward slash ('/') character"],
    ['/', "Key '/' contains more than one forward slash ('/') character"],
    ['/name', "Key prefix segment '' has invalid syntax"],
    ['ex_ample.com/team', "Key prefix segment 'ex_ample.com' has invalid syntax"],
    ['-x.com/team', "Key prefix segment '-x.com' has invalid syntax"],
    ['a..b/c', "Key prefix segment 'a..b' has invalid syntax"],
    ['Example.COM/-key', "Key name segment '-key' has invalid syntax"],
    ['n'.repeat(64), `Key name segment '${'n'.repeat(50)}...' exceeds maximum length of 63 characters`],
    [`${'p'.repeat(254)}/n`, `Key prefix segment '${'p'.repeat(50)}...' exceeds maximum length of 253 characters`],
    [`${'q'.repeat(60)}/a/b`, `Key '${'q'.repeat(50)}...' contains more than one forward slash ('/') character`],
  ])('refuses %s', async (key, reason) => {
    expect((await rejected(() => send({ ok: 'v', [key]: 'v' }))).cause).toBe(invalidArgument(reason));
  });
});

describe.each(routes)('%s annotation size (256 KiB of non-empty-valued entries)', (route, send) => {
  const field = route === 'POST /v2/parties' ? 'party_details.local_metadata.annotations' : 'user.metadata.annotations';

  it('accepts exactly 256 KiB of keys and values', async () => {
    expect((await send({ k: 'v'.repeat(limit - 1) })).status).toBe(200);
  });

  it('refuses one byte more, counting UTF-8 bytes', async () => {
    expect((await rejected(() => send({ k: 'v'.repeat(limit) }))).cause).toBe(invalidArgument(`annotations from field '${field}' are larger than the limit of 256kb`));
    // 'é' is two bytes; an unpaired surrogate is one byte ('?'), as Java's getBytes(UTF_8) counts it.
    await rejected(() => send({ k: 'é'.repeat(limit / 2) }));
    expect((await send({ k: '\ud800'.repeat(limit - 1) })).status).toBe(200);
  });

  it('checks the size before the keys', async () => {
    expect((await rejected(() => send({ 'bad key': 'v'.repeat(limit) }))).cause).toContain('larger than the limit of 256kb');
  });
});

describe('annotations with an empty value', () => {
  const atLimit = { k: 'v'.repeat(limit - 1) };

  it('do not count toward the size: an update at the limit may also delete keys', async () => {
    const r = await updateUser({ ...atLimit, ['deleted'.repeat(9)]: '' });
    expect(r.status, r.text).toBe(200);
    expect(Object.keys((r.json as { user: { metadata: { annotations: object } } }).user.metadata.annotations)).toEqual(['k']);
  });

  it.each(routes.filter(([route]) => route !== 'PATCH /v2/users/{id}'))('are refused on %s, after the size and the keys', async (_route, send) => {
    // At the limit without the empty-valued entry: the size passes, the empty value is the error.
    expect((await rejected(() => send({ ...atLimit, gone: '' }))).cause).toBe(invalidArgument("The value of an annotation is empty for key: 'gone'"));
    // Every key is checked before any value.
    expect((await rejected(() => send({ gone: '', 'bad key': 'v' }))).cause).toBe(invalidArgument("Key name segment 'bad key' has invalid syntax"));
  });
});

describe('POST /v2/parties localMetadata, in the server order', () => {
  it('stores valid annotations on the party', async () => {
    const r = await allocate({ partyIdHint: 'Annotated', localMetadata: { resourceVersion: '', annotations: { 'Example.COM/team': 'blue' } } });
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({ partyDetails: { localMetadata: { resourceVersion: '0', annotations: { 'Example.COM/team': 'blue' } } } });
  });

  it.each([
    ['a resource version', { localMetadata: { resourceVersion: '1', annotations: {} } }, 'field party_details.local_metadata.resource_version must be not set'],
    ['a bad hint before bad annotations', { partyIdHint: 'no way!', localMetadata: { annotations: { 'a b': 'v' } } }, 'non expected character 0x21 in Daml-LF Party "no way!"'],
    ['a resource version before bad annotations', { localMetadata: { resourceVersion: '1', annotations: { 'a b': 'v' } } }, 'must be not set'],
    ['bad annotations before a hint with ::', { partyIdHint: 'a::b', localMetadata: { annotations: { 'a b': 'v' } } }, "Key name segment 'a b' has invalid syntax"],
    ['bad annotations before an unknown user', { userId: 'nobody', localMetadata: { annotations: { k: '' } } }, "The value of an annotation is empty for key: 'k'"],
  ])('refuses %s', async (_name, body, reason) => {
    expect((await rejected(() => allocate(body))).cause).toContain(reason);
  });

  it('refuses bad annotations before an unknown synchronizer', async () => {
    const body = { synchronizerId: `x::1220${'0'.repeat(64)}`, localMetadata: { annotations: { 'a/b/c': 'v' } } };
    expect((await rejected(() => allocate(body))).cause).toContain('more than one forward slash');
  });
});
