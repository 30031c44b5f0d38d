import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { call } from '../support/sandbox-http.js';
import { addParty, createUser, expectDecodeFailure, expectError, expectRedacted, right, stateSnapshot, testSecret, type ErrorBody, type UserJson } from './auth-test-kit.js';

let sandbox: Sandbox;
let admin: string;
let alice: string;
let acmeAdmin: string;
let defaultIdpAdmin: string;
let aliceParty: string;

beforeAll(async () => {
  sandbox = await startSandbox({ authSecret: testSecret });
  admin = await sandbox.token('participant_admin');
  aliceParty = addParty(sandbox, 'Alice');
  acmeAdmin = await createUser(sandbox, 'acme-admin', { identityProviderId: 'idp-acme', rights: [right('IdentityProviderAdmin')] });
  defaultIdpAdmin = await createUser(sandbox, 'default-idp-admin', { rights: [right('IdentityProviderAdmin')] });
  await createUser(sandbox, 'acme-bob', { identityProviderId: 'idp-acme' });
});
afterAll(() => sandbox.close());

// Every test starts from the same `alice`: recreated with two annotations and a primary party.
beforeEach(async () => {
  sandbox.state.users.delete('alice');
  alice = await createUser(sandbox, 'alice', { primaryParty: aliceParty, annotations: { team: 'blue', tier: 'gold' }, rights: [right('CanActAs', aliceParty)] });
});

// `null`: no token at all (`undefined` would pick the default).
const patch = (pathId: string, body: unknown, token: string | null = admin) =>
  call(sandbox.url, 'PATCH', `/v2/users/${encodeURIComponent(pathId)}`, { ...(token === null ? {} : { token }), body });

function userBody(overrides: Omit<Partial<UserJson>, 'metadata'> & { metadata?: Partial<UserJson['metadata']> } = {}): UserJson {
  const { metadata, ...rest } = overrides;
  return {
    id: 'alice',
    primaryParty: '',
    isDeactivated: false,
    identityProviderId: '',
    primaryPartyAuthentication: false,
    ...rest,
    metadata: { resourceVersion: '', annotations: {}, ...metadata },
  };
}

async function updated(paths: string[], user: UserJson = userBody(), token = admin): Promise<UserJson> {
  const r = await patch(user.id, { user, updateMask: { paths } }, token);
  expect(r.status, r.text).toBe(200);
  return (r.json as { user: UserJson }).user;
}

async function rejected(pathId: string, body: unknown, status: number, code: string, token: string | null = admin): Promise<ErrorBody> {
  const before = stateSnapshot(sandbox);
  const e = expectError(await patch(pathId, body, token), status, code);
  expect(stateSnapshot(sandbox)).toBe(before);
  return e;
}

describe('PATCH /v2/users/{user-id}: the JSON layer checks the path id first', () => {
  it.each([
    ['another body id', { user: userBody({ id: 'bob' }), updateMask: { paths: ['primary_party'] } }, 'Some(bob)'],
    ['a body id differing in case', { user: userBody({ id: 'Alice' }), updateMask: { paths: ['primary_party'] } }, 'Some(Alice)'],
    ['no user', { updateMask: { paths: ['primary_party'] } }, 'None'],
    ['a null user', { user: null }, 'None'],
    ['a user without id', { user: { primaryParty: '' }, updateMask: { paths: ['primary_party'] } }, 'Some()'],
  ])('answers %s with the JSON-layer INVALID_ARGUMENT, even without a token', async (_name, body, rendered) => {
    const e = await rejected('alice', body, 400, 'INVALID_ARGUMENT', null);
    expect(e.cause).toBe(`The submitted request has invalid arguments: alice does not match user in body: ${rendered} `);
    expect(e).toMatchObject({ context: {}, definiteAnswer: false, errorCategory: 8, grpcCodeValue: 3 });
    expect(e.correlationId).toBe(e.traceId);
  });

  it('compares with the URL-decoded path id', async () => {
    const e = await rejected("a#b|c+d@e^f$g`h'i~j:k(l)", { user: userBody({ id: "a#b|c+d@e^f$g`h'i~j:k(l)" }), updateMask: { paths: ['primary_party'] } }, 404, 'USER_NOT_FOUND');
    expect(e.cause).toBe('updating user failed for unknown user "a#b|c+d@e^f$g`h\'i~j:k(l)"');
  });

  it.each([
    ['a slash', 'a/b'],
    ['a space', 'ops team'],
    ['129 characters', 'u'.repeat(129)],
  ])('matches a path id with %s first, then authenticates, then refuses the id (INVALID_FIELD user.id)', async (_name, id) => {
    const body = { user: userBody({ id }), updateMask: { paths: ['primary_party'] } };
    // `a%2Fb` is one path segment, decoded to `a/b` before the comparison.
    expect((await patch(id, body, null)).status).toBe(401);
    const e = await rejected(id, body, 400, 'INVALID_FIELD');
    expect(e.cause).toBe(
      `The submitted command has a field with invalid value: Invalid field user.id: User ID "${id}" does not match regex "[a-zA-Z0-9@^$.!\`\\-#+'~_|:()]{1,128}"`,
    );
    // A body id that differs from the path is the JSON layer's INVALID_ARGUMENT, before authentication.
    const mismatch = await rejected(id, { user: userBody({ id: 'alice' }), updateMask: { paths: ['primary_party'] } }, 400, 'INVALID_ARGUMENT', null);
    expect(mismatch.cause).toBe(`The submitted request has invalid arguments: ${id} does not match user in body: Some(alice) `);
  });

  it('decodes the body before anything else', async () => {
    expectDecodeFailure(await call(sandbox.url, 'PATCH', '/v2/users/alice', { rawBody: '{"user": ' }));
    expectDecodeFailure(await patch('alice', { user: { id: 'alice', isDeactivated: 'no' } }, null));
    expectDecodeFailure(await patch('alice', { user: userBody(), updateMask: { paths: 'primary_party' } }, null));
  });
});

describe('PATCH /v2/users/{user-id}: authorization', () => {
  it('admits a participant admin and an IDP admin of the user IDP only', async () => {
    const body = (id: string, idp: string) => ({ user: userBody({ id, identityProviderId: idp }), updateMask: { paths: ['primary_party_authentication'] } });
    expectRedacted(await patch('alice', body('alice', ''), null), 401);
    expectRedacted(await patch('alice', body('alice', ''), alice), 403);
    expectRedacted(await patch('alice', body('alice', ''), acmeAdmin), 403);
    expectRedacted(await patch('acme-bob', body('acme-bob', ''), acmeAdmin), 403);
    expect((await patch('alice', body('alice', ''), defaultIdpAdmin)).status).toBe(200);
    expect((await patch('acme-bob', body('acme-bob', 'idp-acme'), acmeAdmin)).status).toBe(200);
    // An IDP admin naming its own IDP for a user of another IDP: the store hides the user (403).
    expectRedacted(await patch('alice', body('alice', 'idp-acme'), acmeAdmin), 403);
  });
});

describe('PATCH /v2/users/{user-id}: validation, in order', () => {
  const mask = { paths: ['primary_party'] };
  const cases: [string, string, Record<string, unknown>, number, string, string][] = [
    ['a malformed user id', 'bad id', { user: userBody({ id: 'bad id' }), updateMask: mask }, 400, 'INVALID_FIELD', 'Invalid field user.id: User ID "bad id" does not match regex'],
    ['a missing update mask', 'alice', { user: userBody() }, 400, 'MISSING_FIELD', 'The submitted command is missing a mandatory field: update_mask'],
    ['a malformed primary party', 'alice', { user: userBody({ primaryParty: 'Al!ce' }), updateMask: mask }, 400, 'INVALID_ARGUMENT', 'The submitted request has invalid arguments: '],
    ['a malformed identity provider id', 'alice', { user: userBody({ identityProviderId: 'bad!' }), updateMask: mask }, 400, 'INVALID_FIELD', 'Invalid field identity_provider_id: '],
    ['a non-numeric resource version', 'alice', { user: userBody({ metadata: { resourceVersion: 'v1' } }), updateMask: mask }, 400, 'INVALID_FIELD', 'Invalid field user.metadata.resource_version: Invalid resource version number'],
    ['an invalid annotation key', 'alice', { user: userBody({ metadata: { annotations: { 'bad key!': 'x' } } }), updateMask: mask }, 400, 'INVALID_ARGUMENT', "Key name segment 'bad key!' has invalid syntax"],
    ['annotations over 256 kB', 'alice', { user: userBody({ metadata: { annotations: { big: 'x'.repeat(262_142) } } }), updateMask: mask }, 400, 'INVALID_ARGUMENT', "annotations from field 'user.metadata.annotations' are larger than the limit of 256kb"],
    ['an empty mask', 'alice', { user: userBody(), updateMask: { paths: [] } }, 400, 'INVALID_USER_UPDATE_REQUEST', "Update operation for user id 'alice' failed due to: The update mask contains no entries"],
    ['a camelCase path', 'alice', { user: userBody(), updateMask: { paths: ['primaryParty'] } }, 400, 'INVALID_USER_UPDATE_REQUEST', "The update path: 'primaryParty' points to an unknown field."],
    ['a path below a leaf', 'alice', { user: userBody(), updateMask: { paths: ['metadata.annotations.team'] } }, 400, 'INVALID_USER_UPDATE_REQUEST', "The update path: 'metadata.annotations.team' points to an unknown field."],
    ['a 54-character unknown path', 'alice', { user: userBody(), updateMask: { paths: ['p'.repeat(54)] } }, 400, 'INVALID_USER_UPDATE_REQUEST', `The update path: '${'p'.repeat(50)}...' points to an unknown field.`],
    ['a 53-character unknown path', 'alice', { user: userBody(), updateMask: { paths: ['q'.repeat(53)] } }, 400, 'INVALID_USER_UPDATE_REQUEST', `The update path: '${'q'.repeat(53)}' points to an unknown field.`],
    ['a duplicated path', 'alice', { user: userBody(), updateMask: { paths: ['metadata', 'id', 'metadata'] } }, 400, 'INVALID_USER_UPDATE_REQUEST', "The update path: 'metadata' is duplicated."],
    ['an unknown identity provider', 'alice', { user: userBody({ identityProviderId: 'idp-nowhere' }), updateMask: mask }, 400, 'INVALID_ARGUMENT', 'Provided identity_provider_id idp-nowhere has not been found.'],
    ['an unknown user', 'carol', { user: userBody({ id: 'carol' }), updateMask: mask }, 404, 'USER_NOT_FOUND', 'updating user failed for unknown user "carol"'],
    ['a stale resource version', 'alice', { user: userBody({ metadata: { resourceVersion: '7' } }), updateMask: mask }, 409, 'CONCURRENT_USER_UPDATE_DETECTED', "Update operation for user 'alice' failed due to a concurrent update to the same user"],
    // Order: request validation before the mask, the mask before the IDP, the IDP before the store.
    ['a bad resource version and an empty mask', 'alice', { user: userBody({ metadata: { resourceVersion: 'x' } }), updateMask: { paths: [] } }, 400, 'INVALID_FIELD', 'resource_version'],
    ['an unknown path and an unknown IDP', 'alice', { user: userBody({ identityProviderId: 'idp-nowhere' }), updateMask: { paths: ['nope'] } }, 400, 'INVALID_USER_UPDATE_REQUEST', "'nope'"],
    ['an unknown IDP and an unknown user', 'carol', { user: userBody({ id: 'carol', identityProviderId: 'idp-nowhere' }), updateMask: mask }, 400, 'INVALID_ARGUMENT', 'idp-nowhere'],
    ['an unknown user and a stale version', 'carol', { user: userBody({ id: 'carol', metadata: { resourceVersion: '9' } }), updateMask: mask }, 404, 'USER_NOT_FOUND', 'carol'],
  ];
  it.each(cases)('rejects %s', async (_name, pathId, body, status, code, cause) => {
    const e = await rejected(pathId, body, status, code);
    expect(e.cause).toContain(cause);
    if (code === 'INVALID_USER_UPDATE_REQUEST' || code === 'USER_NOT_FOUND' || code === 'CONCURRENT_USER_UPDATE_DETECTED') {
      expect(e.resources).toEqual([['USER', pathId]]);
    }
    if (code === 'CONCURRENT_USER_UPDATE_DETECTED') expect(e).toMatchObject({ errorCategory: 2, grpcCodeValue: 10, retryInfo: '1 second' });
  });

  it('refuses self-deactivation but lets an admin deactivate and reactivate another user', async () => {
    const e = await rejected('participant_admin', { user: userBody({ id: 'participant_admin', isDeactivated: true }), updateMask: { paths: ['is_deactivated'] } }, 400, 'INVALID_ARGUMENT');
    expect(e.cause).toBe('The submitted request has invalid arguments: Requesting user cannot self-deactivate');
    expect((await updated(['is_deactivated'], userBody({ isDeactivated: true }))).isDeactivated).toBe(true);
    expectRedacted(await call(sandbox.url, 'GET', '/v2/authenticated-user', { token: alice }), 403);
    expect((await updated(['is_deactivated'], userBody({ isDeactivated: false }))).isDeactivated).toBe(false);
  });

  it('refuses merged annotations over 256 kB (MAX_USER_ANNOTATIONS_SIZE_EXCEEDED), each request being under it', async () => {
    await updated(['metadata.annotations'], userBody({ metadata: { annotations: { a: 'x'.repeat(200_000) } } }));
    const e = await rejected('alice', { user: userBody({ metadata: { annotations: { b: 'y'.repeat(100_000) } } }), updateMask: { paths: ['metadata'] } }, 400, 'MAX_USER_ANNOTATIONS_SIZE_EXCEEDED');
    expect(e).toMatchObject({ cause: "Maximum annotations size for user 'alice' has been exceeded", errorCategory: 9, resources: [['USER', 'alice']] });
    // Replacing the big value keeps the total under the limit.
    expect(Object.keys((await updated(['metadata'], userBody({ metadata: { annotations: { a: '', b: 'y'.repeat(100_000) } } }))).metadata.annotations)).toEqual(['team', 'tier', 'b']);
  });
});

describe('PATCH /v2/users/{user-id}: update-mask semantics', () => {
  it('answers the whole user with every field', async () => {
    const user = await updated(['primary_party_authentication'], userBody({ primaryPartyAuthentication: true }));
    expect(user).toEqual({
      id: 'alice',
      primaryParty: aliceParty,
      isDeactivated: false,
      metadata: { resourceVersion: '1', annotations: { team: 'blue', tier: 'gold' } },
      identityProviderId: '',
      primaryPartyAuthentication: true,
    });
  });

  it('sets an exactly named field even to its default value', async () => {
    expect((await updated(['primary_party'], userBody({ primaryParty: '' }))).primaryParty).toBe('');
    const bob = addParty(sandbox, 'Bob');
    expect((await updated(['primary_party'], userBody({ primaryParty: bob }))).primaryParty).toBe(bob);
  });

  it('changes nothing outside the mask, whatever the body says', async () => {
    const user = await updated(['primary_party_authentication'], userBody({ primaryParty: '', isDeactivated: true, metadata: { annotations: { team: '' } } }));
    expect(user).toMatchObject({ primaryParty: aliceParty, isDeactivated: false, metadata: { annotations: { team: 'blue', tier: 'gold' } } });
  });

  it('accepts id, identity_provider_id and metadata.resource_version as inert paths, still bumping the version', async () => {
    const user = await updated(['id', 'identity_provider_id', 'metadata.resource_version'], userBody({ primaryParty: '' }));
    expect(user).toMatchObject({ primaryParty: aliceParty, metadata: { resourceVersion: '1', annotations: { team: 'blue', tier: 'gold' } } });
  });

  it('merges annotations, deleting keys given an empty value, through the exact path or the metadata prefix', async () => {
    const exact = await updated(['metadata.annotations'], userBody({ metadata: { annotations: { team: 'red', region: 'eu' } } }));
    expect(exact.metadata.annotations).toEqual({ team: 'red', tier: 'gold', region: 'eu' });
    const prefix = await updated(['metadata'], userBody({ metadata: { annotations: { tier: '', zone: 'a' } } }));
    expect(prefix.metadata.annotations).toEqual({ team: 'red', region: 'eu', zone: 'a' });
    expect(prefix.metadata.resourceVersion).toBe('2');
  });

  it('leaves annotations alone for the metadata prefix with an empty map or the exact path with {}', async () => {
    for (const paths of [['metadata'], ['metadata.annotations']]) {
      expect((await updated(paths)).metadata.annotations).toEqual({ team: 'blue', tier: 'gold' });
    }
  });

  it('bumps the resource version on every success, enforces it as compare-and-set, and rights changes keep it', async () => {
    const v1 = await updated(['primary_party_authentication']);
    const v2 = await updated(['primary_party_authentication'], userBody({ metadata: { resourceVersion: v1.metadata.resourceVersion } }));
    expect([v1.metadata.resourceVersion, v2.metadata.resourceVersion]).toEqual(['1', '2']);
    await rejected('alice', { user: userBody({ metadata: { resourceVersion: '1' } }), updateMask: { paths: ['primary_party'] } }, 409, 'CONCURRENT_USER_UPDATE_DETECTED');
    const granted = await call(sandbox.url, 'POST', '/v2/users/alice/rights', { token: admin, body: { userId: 'alice', rights: [right('CanReadAsAnyParty')] } });
    expect(granted.status).toBe(200);
    const revoked = await call(sandbox.url, 'PATCH', '/v2/users/alice/rights', { token: admin, body: { userId: 'alice', rights: [right('CanReadAsAnyParty')] } });
    expect(revoked.status).toBe(200);
    const got = await call(sandbox.url, 'GET', '/v2/users/alice', { token: admin });
    expect((got.json as { user: UserJson }).user.metadata.resourceVersion).toBe('2');
    expect((await updated(['primary_party'], userBody({ primaryParty: aliceParty, metadata: { resourceVersion: '+2' } }))).metadata.resourceVersion).toBe('3');
  });
});
