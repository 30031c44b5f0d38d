import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { identityProvidersOf } from '../../src/sandbox/users/identity-providers-of.js';
import { call } from '../support/sandbox-http.js';
import { addParty, createUser, expectDecodeFailure, expectError, expectRedacted, right, stateSnapshot, testSecret, type ErrorBody, type UserJson } from './auth-test-kit.js';

let sandbox: Sandbox;
let admin: string;
let acmeAdmin: string;
let plain: string;
let acmeParty: string;

beforeAll(async () => {
  sandbox = await startSandbox({ authSecret: testSecret });
  admin = await sandbox.token('participant_admin');
  acmeAdmin = await createUser(sandbox, 'acme-admin', { identityProviderId: 'idp-acme', rights: [right('IdentityProviderAdmin')] });
  plain = await createUser(sandbox, 'plain');
  acmeParty = addParty(sandbox, 'Acme', 'idp-acme');
});
afterAll(() => sandbox.close());

const post = (body: unknown, token: string | null = admin) => call(sandbox.url, 'POST', '/v2/users', { ...(token === null ? {} : { token }), body });
const user = (id: string, extra: Record<string, unknown> = {}) => ({ id, primaryParty: '', isDeactivated: false, identityProviderId: '', metadata: { resourceVersion: '', annotations: {} }, ...extra });

async function rejected(request: Promise<Awaited<ReturnType<typeof post>>>, status: number, code: string): Promise<ErrorBody> {
  const before = stateSnapshot(sandbox);
  const e = expectError(await request, status, code);
  expect(stateSnapshot(sandbox)).toBe(before);
  return e;
}

describe('POST /v2/users', () => {
  it('creates a user with every field in the answer, resource version 0 and its rights', async () => {
    const party = addParty(sandbox, 'Erin');
    const r = await post({ user: { id: 'erin', primaryParty: party, metadata: { annotations: { team: 'x' } } }, rights: [right('CanActAs', party)] });
    expect(r.status, r.text).toBe(200);
    expect((r.json as { user: UserJson }).user).toEqual({
      id: 'erin',
      primaryParty: party,
      isDeactivated: false,
      metadata: { resourceVersion: '0', annotations: { team: 'x' } },
      identityProviderId: '',
      primaryPartyAuthentication: false,
    });
    const rights = await call(sandbox.url, 'GET', '/v2/users/erin/rights', { token: admin });
    expect(rights.json).toEqual({ rights: [right('CanActAs', party)] });
  });

  const cases: [string, unknown, number, string, string][] = [
    ['an existing id', { user: user('plain') }, 409, 'USER_ALREADY_EXISTS', 'creating user failed, as user "plain" already exists'],
    ['no user', { rights: [] }, 400, 'MISSING_FIELD', 'The submitted command is missing a mandatory field: user'],
    ['an empty id', { user: user('') }, 400, 'MISSING_FIELD', 'missing a mandatory field: id'],
    ['a malformed id', { user: user('ops team') }, 400, 'INVALID_FIELD', 'Invalid field id: User ID "ops team" does not match regex'],
    ['a resource version', { user: user('frank', { metadata: { resourceVersion: '3', annotations: {} } }) }, 400, 'INVALID_FIELD', 'Invalid field user.metadata.resource_version'],
    ['an empty annotation value', { user: user('frank', { metadata: { annotations: { k: '' } } }) }, 400, 'INVALID_ARGUMENT', "The value of an annotation is empty for key: 'k'"],
    ['a malformed primary party', { user: user('frank', { primaryParty: '!' }) }, 400, 'INVALID_ARGUMENT', '0x21'],
    ['an Empty right', { user: user('frank'), rights: [{ kind: { Empty: {} } }] }, 400, 'INVALID_ARGUMENT', 'unknown kind of right'],
    ['an unknown identity provider', { user: user('frank', { identityProviderId: 'idp-zeta' }) }, 400, 'INVALID_ARGUMENT', 'Provided identity_provider_id idp-zeta has not been found.'],
  ];
  it.each(cases)('rejects %s', async (_name, body, status, code, cause) => {
    expect((await rejected(post(body), status, code)).cause).toContain(cause);
  });

  it('lets an IDP admin create users of its own IDP only, without admin-only rights or foreign parties', async () => {
    const acmeUser = (id: string) => user(id, { identityProviderId: 'idp-acme' });
    expectRedacted(await post({ user: acmeUser('gina'), rights: [right('CanActAsAnyParty')] }, acmeAdmin), 403);
    expectRedacted(await post({ user: user('gina') }, acmeAdmin), 403);
    expectRedacted(await post({ user: acmeUser('gina') }, plain), 403);
    expectRedacted(await post({ user: acmeUser('gina') }, null), 401);
    await rejected(post({ user: acmeUser('gina'), rights: [right('CanActAs', addParty(sandbox, 'Outsider'))] }, acmeAdmin), 404, 'UNKNOWN_RESOURCE');
    const r = await post({ user: acmeUser('gina'), rights: [right('CanActAs', acmeParty), right('IdentityProviderAdmin')] }, acmeAdmin);
    expect(r.status, r.text).toBe(200);
    expect((r.json as { user: UserJson }).user.identityProviderId).toBe('idp-acme');
  });

  it('knows the identity providers registered on the state', async () => {
    identityProvidersOf(sandbox.state).add('idp-beta');
    expect((await post({ user: user('hank', { identityProviderId: 'idp-beta' }) })).status).toBe(200);
    identityProvidersOf(sandbox.state).remove('idp-beta');
    await rejected(post({ user: user('hank2', { identityProviderId: 'idp-beta' }) }), 400, 'INVALID_ARGUMENT');
    expect(identityProvidersOf(sandbox.state).remove('')).toBe(false);
  });

  it('decodes before authenticating', async () => {
    expectDecodeFailure(await post({ user: { id: 5 } }, null));
  });
});

describe('user ids (Daml-LF UserId: 1 to 128 of letters, digits and @^$.!`-#+\'~_|:())', () => {
  const regex = "[a-zA-Z0-9@^$.!`\\-#+'~_|:()]{1,128}";
  const path = (id: string, tail = '') => `/v2/users/${encodeURIComponent(id)}${tail}`;

  it.each([["every allowed symbol", "a@b^c$d.e!f`g-h#i+j'k~l_m|n:o(p)"], ['128 characters', 'u'.repeat(128)], ['one character', 'Z']])(
    'accepts %s: created, read, its rights listed, deleted, and its token usable',
    async (_name, id) => {
      const created = await post({ user: user(id) });
      expect(created.status, created.text).toBe(200);
      expect((created.json as { user: UserJson }).user.id).toBe(id);
      expect((await call(sandbox.url, 'GET', path(id), { token: admin })).status).toBe(200);
      expect((await call(sandbox.url, 'GET', path(id, '/rights'), { token: admin })).json).toEqual({ rights: [] });
      expect((await call(sandbox.url, 'GET', '/v2/authenticated-user', { token: await sandbox.token(id) })).status).toBe(200);
      expect((await call(sandbox.url, 'DELETE', path(id), { token: admin })).status).toBe(200);
    },
  );

  it.each([
    ['a space', 'ops team'],
    ['a slash', 'a/b'],
    ['129 characters', 'u'.repeat(129)],
    ['a non-ASCII letter', 'jürgen'],
    ['a percent sign', '100%'],
    ['a comma', 'a,b'],
  ])('refuses %s with INVALID_FIELD on every user route', async (_name, id) => {
    const cause = (field: string) => `The submitted command has a field with invalid value: Invalid field ${field}: User ID "${id}" does not match regex "${regex}"`;
    expect((await rejected(post({ user: user(id) }), 400, 'INVALID_FIELD')).cause).toBe(cause('id'));
    for (const [method, tail] of [['GET', ''], ['DELETE', ''], ['GET', '/rights']] as const) {
      expect((await rejected(call(sandbox.url, method, path(id, tail), { token: admin }), 400, 'INVALID_FIELD')).cause, `${method} ${tail}`).toBe(cause('user_id'));
    }
    const rights = { userId: id, rights: [] };
    for (const method of ['POST', 'PATCH']) {
      expect((await rejected(call(sandbox.url, method, path(id, '/rights'), { token: admin, body: rights }), 400, 'INVALID_FIELD')).cause, method).toBe(cause('user_id'));
    }
  });

  it('checks a path id only after authorization on the read and delete routes (the service validates it)', async () => {
    expectRedacted(await call(sandbox.url, 'GET', path('ops team')), 401);
    expectRedacted(await call(sandbox.url, 'DELETE', path('a/b'), { token: plain }), 403);
  });
});

describe('GET /v2/users/{user-id} and GET /v2/authenticated-user', () => {
  it('answers admins, the user itself and IDP admins of the user IDP', async () => {
    const got = await call(sandbox.url, 'GET', '/v2/users/plain', { token: admin });
    expect((got.json as { user: UserJson }).user).toMatchObject({ id: 'plain', primaryParty: '', metadata: { resourceVersion: '0', annotations: {} }, identityProviderId: '' });
    expect((await call(sandbox.url, 'GET', '/v2/users/plain', { token: plain })).status).toBe(200);
    expectRedacted(await call(sandbox.url, 'GET', '/v2/users/participant_admin', { token: plain }), 403);
    expectRedacted(await call(sandbox.url, 'GET', '/v2/users/plain', { token: acmeAdmin }), 403);
    expect((await call(sandbox.url, 'GET', '/v2/users/acme-admin?identity-provider-id=idp-acme', { token: admin })).status).toBe(200);
    // Without the IDP parameter the default IDP is meant: the acme user is hidden.
    expectRedacted(await call(sandbox.url, 'GET', '/v2/users/acme-admin', { token: admin }), 403);
    const missing = expectError(await call(sandbox.url, 'GET', '/v2/users/nobody', { token: admin }), 404, 'USER_NOT_FOUND');
    expect(missing).toMatchObject({ cause: 'getting user failed for unknown user "nobody"', resources: [['USER', 'nobody']] });
    expectError(await call(sandbox.url, 'GET', '/v2/users/bad%20id', { token: admin }), 400, 'INVALID_FIELD');
  });

  it('answers the caller itself on /v2/authenticated-user', async () => {
    const r = await call(sandbox.url, 'GET', '/v2/authenticated-user', { token: acmeAdmin });
    expect((r.json as { user: UserJson }).user).toMatchObject({ id: 'acme-admin', identityProviderId: 'idp-acme' });
    expectRedacted(await call(sandbox.url, 'GET', '/v2/authenticated-user?identity-provider-id=idp-other', { token: acmeAdmin }), 403);
    expectRedacted(await call(sandbox.url, 'GET', '/v2/authenticated-user'), 401);
  });

  it('refuses /v2/authenticated-user when auth is off (no user in the claims)', async () => {
    const open = await startSandbox();
    try {
      const e = expectError(await call(open.url, 'GET', '/v2/authenticated-user'), 400, 'INVALID_ARGUMENT');
      expect(e.cause).toBe('The submitted request has invalid arguments: requests with an empty user-id are only supported if there is an authenticated user');
      expect((await call(open.url, 'GET', '/v2/users/participant_admin')).status).toBe(200);
    } finally {
      await open.close();
    }
  });
});

describe('GET /v2/users', () => {
  it('pages through the users of the caller IDP in id order', async () => {
    const seen: string[] = [];
    let token = '';
    for (let i = 0; i < 20; i++) {
      const r = await call(sandbox.url, 'GET', `/v2/users?pageSize=2${token ? `&pageToken=${token}` : ''}`, { token: admin });
      expect(r.status, r.text).toBe(200);
      const page = r.json as { users: UserJson[]; nextPageToken: string };
      seen.push(...page.users.map((u) => u.id));
      if (page.nextPageToken === '') break;
      token = page.nextPageToken;
    }
    const expected = sandbox.state.users.all().filter((u) => u.identityProviderId === '').map((u) => u.id);
    expect(seen).toEqual(expected);
    const acme = await call(sandbox.url, 'GET', '/v2/users', { token: acmeAdmin });
    expect((acme.json as { users: UserJson[] }).users.every((u) => u.identityProviderId === 'idp-acme')).toBe(true);
    expectRedacted(await call(sandbox.url, 'GET', '/v2/users', { token: plain }), 403);
  });

  it('validates the page token, then the page size', async () => {
    const bad = (query: string) => call(sandbox.url, 'GET', `/v2/users?${query}`, { token: admin });
    expect(expectError(await bad('pageToken=%21%21'), 400, 'INVALID_ARGUMENT').cause).toContain('Invalid page token');
    expect(expectError(await bad('pageToken=%21%21&pageSize=-1'), 400, 'INVALID_ARGUMENT').cause).toContain('Invalid page token');
    expect(expectError(await bad('pageSize=-1'), 400, 'INVALID_ARGUMENT').cause).toContain('Max page size must be non-negative');
    const text = await bad('pageSize=ten');
    expect(text.status).toBe(400);
    expect(text.text).toBe('Invalid value for: query parameter pageSize');
  });
});

describe('DELETE /v2/users/{user-id}', () => {
  it('deletes a user, whose token then stops working', async () => {
    const ivan = await createUser(sandbox, 'ivan');
    const before = stateSnapshot(sandbox);
    expectRedacted(await call(sandbox.url, 'DELETE', '/v2/users/ivan', { token: plain }), 403);
    expectRedacted(await call(sandbox.url, 'DELETE', '/v2/users/ivan', { token: acmeAdmin }), 403);
    expect(stateSnapshot(sandbox)).toBe(before);
    const r = await call(sandbox.url, 'DELETE', '/v2/users/ivan', { token: admin });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({});
    expectRedacted(await call(sandbox.url, 'GET', '/v2/authenticated-user', { token: ivan }), 403);
    expect(expectError(await call(sandbox.url, 'DELETE', '/v2/users/ivan', { token: admin }), 404, 'USER_NOT_FOUND').cause).toBe('deleting user failed for unknown user "ivan"');
  });

  it('lets an IDP admin delete users of its IDP', async () => {
    await createUser(sandbox, 'acme-judy', { identityProviderId: 'idp-acme' });
    expectRedacted(await call(sandbox.url, 'DELETE', '/v2/users/acme-judy', { token: admin }), 403);
    expect((await call(sandbox.url, 'DELETE', '/v2/users/acme-judy', { token: acmeAdmin })).status).toBe(200);
  });
});
