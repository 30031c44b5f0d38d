import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { call } from '../support/sandbox-http.js';
import { addParty, createUser, expectDecodeFailure, expectError, expectRedacted, right, stateSnapshot, testSecret, type ErrorBody } from './auth-test-kit.js';

let sandbox: Sandbox;
let admin: string;
let secondAdmin: string;
let acmeAdmin: string;
let alice: string;
let acmeParty: string;
let defaultParty: string;

beforeAll(async () => {
  sandbox = await startSandbox({ authSecret: testSecret });
  admin = await sandbox.token('participant_admin');
  secondAdmin = await createUser(sandbox, 'second-admin', { rights: [right('ParticipantAdmin')] });
  acmeAdmin = await createUser(sandbox, 'acme-admin', { identityProviderId: 'idp-acme', rights: [right('IdentityProviderAdmin')] });
  acmeParty = addParty(sandbox, 'AcmeParty', 'idp-acme');
  defaultParty = addParty(sandbox, 'DefaultParty');
});
afterAll(() => sandbox.close());

// Fresh users each test: `alice` (default IDP) and `acme-carol` (idp-acme).
beforeEach(async () => {
  sandbox.state.users.delete('alice');
  sandbox.state.users.delete('acme-carol');
  alice = await createUser(sandbox, 'alice', { rights: [right('CanActAs', defaultParty), right('CanReadAs', acmeParty), right('CanReadAsAnyParty')] });
  await createUser(sandbox, 'acme-carol', {
    identityProviderId: 'idp-acme',
    rights: [right('CanActAs', acmeParty), right('CanExecuteAs', defaultParty), right('CanReadAs', defaultParty), right('ParticipantAdmin'), right('IdentityProviderAdmin')],
  });
});

type Body = { userId?: string; rights?: unknown[]; identityProviderId?: string };
const send = (method: 'PATCH' | 'POST', pathId: string, body: Body | string, token: string | null) =>
  call(sandbox.url, method, `/v2/users/${encodeURIComponent(pathId)}/rights`, {
    ...(token === null ? {} : { token }),
    ...(typeof body === 'string' ? { rawBody: body } : { body }),
  });
const revoke = (pathId: string, body: Body | string, token: string | null = admin) => send('PATCH', pathId, body, token);
const grant = (pathId: string, body: Body | string, token: string | null = admin) => send('POST', pathId, body, token);

async function rights(userId: string, idp = ''): Promise<unknown[]> {
  const users = sandbox.state.users.get(userId);
  expect(users?.identityProviderId).toBe(idp);
  const r = await call(sandbox.url, 'GET', `/v2/users/${userId}/rights`, { token: idp === '' ? admin : acmeAdmin });
  expect(r.status, r.text).toBe(200);
  return (r.json as { rights: unknown[] }).rights;
}

async function rejected(r: Promise<Awaited<ReturnType<typeof revoke>>>, status: number, code: string): Promise<ErrorBody> {
  const before = stateSnapshot(sandbox);
  const e = expectError(await r, status, code);
  expect(stateSnapshot(sandbox)).toBe(before);
  return e;
}

describe('PATCH /v2/users/{user-id}/rights (revoke)', () => {
  it('revokes and answers only the rights the user actually had, without touching the resource version', async () => {
    const r = await revoke('alice', { userId: 'alice', rights: [right('CanActAs', defaultParty), right('CanActAs', acmeParty), right('CanReadAsAnyParty'), right('ParticipantAdmin')] });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ newlyRevokedRights: [right('CanActAs', defaultParty), right('CanReadAsAnyParty')] });
    expect(await rights('alice')).toEqual([right('CanReadAs', acmeParty)]);
    expect(sandbox.state.users.get('alice')?.resourceVersion).toBe(0);
    const again = await revoke('alice', { userId: 'alice', rights: [right('CanActAs', defaultParty)] });
    expect(again.json).toEqual({ newlyRevokedRights: [] });
  });

  it('accepts an empty (or missing) rights list', async () => {
    for (const body of [{ userId: 'alice', rights: [] }, { userId: 'alice' }]) {
      const r = await revoke('alice', body);
      expect(r.status).toBe(200);
      expect(r.json).toEqual({ newlyRevokedRights: [] });
    }
  });

  it.each([
    ['another body user id', { userId: 'bob', rights: [] }, 'Some(bob)'],
    ['a missing body user id', { rights: [right('ParticipantAdmin')] }, 'Some()'],
  ])('checks the path id first (%s), before authentication', async (_name, body, rendered) => {
    const e = await rejected(revoke('alice', body, null), 400, 'INVALID_ARGUMENT');
    expect(e.cause).toBe(`The submitted request has invalid arguments: alice does not match user in body: ${rendered} `);
    expect(e.definiteAnswer).toBe(false);
  });

  it('decodes the body before the path check', async () => {
    expectDecodeFailure(await revoke('alice', '{', null));
    expectDecodeFailure(await revoke('alice', { userId: 'bob', rights: [{ kind: { CanActAs: {} } }] }, null));
    expectDecodeFailure(await revoke('alice', { userId: 'bob', rights: [{ kind: { Superuser: { value: {} } } }] }, null));
  });

  it('needs a participant admin for ParticipantAdmin and any-party rights; an IDP admin may revoke the rest in its IDP', async () => {
    const acme = { userId: 'acme-carol', identityProviderId: 'idp-acme' };
    for (const kind of ['ParticipantAdmin', 'CanReadAsAnyParty', 'CanExecuteAsAnyParty', 'CanActAsAnyParty']) {
      const before = stateSnapshot(sandbox);
      expectRedacted(await revoke('acme-carol', { ...acme, rights: [right(kind)] }, acmeAdmin), 403);
      expect(stateSnapshot(sandbox)).toBe(before);
    }
    const r = await revoke('acme-carol', { ...acme, rights: [right('CanActAs', acmeParty), right('IdentityProviderAdmin'), right('CanExecuteAs', defaultParty)] }, acmeAdmin);
    expect(r.status, r.text).toBe(200);
    expect(r.json).toEqual({ newlyRevokedRights: [right('CanActAs', acmeParty), right('IdentityProviderAdmin'), right('CanExecuteAs', defaultParty)] });
    // The IDP admin of idp-acme has no say over the default IDP, nor a plain user over anything.
    expectRedacted(await revoke('alice', { userId: 'alice', rights: [] }, acmeAdmin), 403);
    expectRedacted(await revoke('alice', { userId: 'alice', rights: [] }, alice), 403);
    expectRedacted(await revoke('alice', { userId: 'alice', rights: [] }, null), 401);
  });

  it('lets an IDP admin name only parties of its IDP (UNKNOWN_RESOURCE), CanExecuteAs excepted', async () => {
    const e = await rejected(
      revoke('acme-carol', { userId: 'acme-carol', identityProviderId: 'idp-acme', rights: [right('CanReadAs', defaultParty), right('CanActAs', acmeParty), right('CanActAs', 'Nobody::1220')] }, acmeAdmin),
      404,
      'UNKNOWN_RESOURCE',
    );
    expect(e.cause).toBe(`The submitted request refers to a non-existing PARTIES: Provided parties have not been found in identity_provider_id=\`idp-acme\`: [${defaultParty},Nobody::1220].`);
    // A participant admin is not restricted.
    expect((await revoke('acme-carol', { userId: 'acme-carol', identityProviderId: 'idp-acme', rights: [right('CanReadAs', defaultParty)] })).status).toBe(200);
  });

  it('refuses revoking the caller own ParticipantAdmin; another admin may', async () => {
    const body = { userId: 'second-admin', rights: [right('ParticipantAdmin')] };
    const e = await rejected(revoke('second-admin', body, secondAdmin), 400, 'INVALID_ARGUMENT');
    expect(e.cause).toBe('The submitted request has invalid arguments: Requesting user cannot remove own admin rights');
    await rejected(revoke('participant_admin', { userId: 'participant_admin', rights: [right('CanActAs', defaultParty), right('ParticipantAdmin')] }), 400, 'INVALID_ARGUMENT');
    const r = await revoke('second-admin', body);
    expect(r.json).toEqual({ newlyRevokedRights: [right('ParticipantAdmin')] });
    expectRedacted(await revoke('alice', { userId: 'alice', rights: [] }, secondAdmin), 403);
    await grant('second-admin', body);
  });

  const cases: [string, Body, number, string, string][] = [
    ['an Empty right kind', { userId: 'alice', rights: [{ kind: { Empty: {} } }] }, 400, 'INVALID_ARGUMENT', 'unknown kind of right - check that the Ledger API version of the server is recent enough'],
    ['a right without kind', { userId: 'alice', rights: [right('CanReadAsAnyParty'), {}] }, 400, 'INVALID_ARGUMENT', 'unknown kind of right - check that the Ledger API version of the server is recent enough'],
    ['a malformed party', { userId: 'alice', rights: [right('CanReadAs', 'Bad!Party')] }, 400, 'INVALID_ARGUMENT', 'Bad!Party'],
    ['an empty party', { userId: 'alice', rights: [right('CanExecuteAs', '')] }, 400, 'INVALID_ARGUMENT', 'Party is empty'],
    ['a malformed identity provider id', { userId: 'alice', rights: [], identityProviderId: 'idp!' }, 400, 'INVALID_FIELD', 'Invalid field identity_provider_id'],
    ['an unknown user', { userId: 'dave', rights: [] }, 404, 'USER_NOT_FOUND', 'revoke user rights failed for unknown user "dave"'],
    // Order: rights validation before the self-admin check and the store.
    ['an unknown user with an Empty right', { userId: 'dave', rights: [{ kind: { Empty: {} } }] }, 400, 'INVALID_ARGUMENT', 'unknown kind of right'],
    ['a bad party before a bad IDP id', { userId: 'alice', rights: [right('CanActAs', '!')], identityProviderId: 'idp!' }, 400, 'INVALID_ARGUMENT', '0x21'],
  ];
  it.each(cases)('rejects %s', async (_name, body, status, code, cause) => {
    const e = await rejected(revoke(body.userId as string, body), status, code);
    expect(e.cause).toContain(cause);
  });

  it('hides a user of another IDP (403) and refuses a malformed user id', async () => {
    expectRedacted(await revoke('acme-carol', { userId: 'acme-carol', rights: [] }), 403);
    const e = await rejected(revoke('bad id', { userId: 'bad id', rights: [] }), 400, 'INVALID_FIELD');
    expect(e.cause).toContain('Invalid field user_id: User ID "bad id" does not match regex');
  });
});

describe('POST /v2/users/{user-id}/rights (grant) and GET (list)', () => {
  it('grants only new rights, lists them, and keeps the resource version', async () => {
    const r = await grant('alice', { userId: 'alice', rights: [right('CanActAs', defaultParty), right('CanExecuteAsAnyParty'), right('IdentityProviderAdmin'), right('CanExecuteAsAnyParty')] });
    expect(r.status, r.text).toBe(200);
    expect(r.json).toEqual({ newlyGrantedRights: [right('CanExecuteAsAnyParty'), right('IdentityProviderAdmin')] });
    expect(await rights('alice')).toEqual([right('CanActAs', defaultParty), right('CanReadAs', acmeParty), right('CanReadAsAnyParty'), right('CanExecuteAsAnyParty'), right('IdentityProviderAdmin')]);
    expect(sandbox.state.users.get('alice')?.resourceVersion).toBe(0);
  });

  it('applies the same path check, authorization and party rules as revoke', async () => {
    expect((await rejected(grant('alice', { userId: 'bob' }, null), 400, 'INVALID_ARGUMENT')).cause).toContain('Some(bob) ');
    expectRedacted(await grant('acme-carol', { userId: 'acme-carol', identityProviderId: 'idp-acme', rights: [right('ParticipantAdmin')] }, acmeAdmin), 403);
    await rejected(grant('acme-carol', { userId: 'acme-carol', identityProviderId: 'idp-acme', rights: [right('CanActAs', defaultParty)] }, acmeAdmin), 404, 'UNKNOWN_RESOURCE');
    const ok = await grant('acme-carol', { userId: 'acme-carol', identityProviderId: 'idp-acme', rights: [right('CanReadAs', acmeParty)] }, acmeAdmin);
    expect(ok.json).toEqual({ newlyGrantedRights: [right('CanReadAs', acmeParty)] });
    expect((await rejected(grant('dave', { userId: 'dave', rights: [] }), 404, 'USER_NOT_FOUND')).cause).toBe('grant user rights failed for unknown user "dave"');
  });

  it('refuses more than 1000 rights per user', async () => {
    const many = Array.from({ length: 1000 }, (_, i) => right('CanReadAs', `P${i}::1220`));
    const e = await rejected(grant('alice', { userId: 'alice', rights: many }), 400, 'TOO_MANY_USER_RIGHTS');
    expect(e.cause).toBe('grant user rights failed, as user "alice" would have too many rights.');
  });

  it('lets a user list its own rights but not another user', async () => {
    const own = await call(sandbox.url, 'GET', '/v2/users/alice/rights', { token: alice });
    expect(own.status).toBe(200);
    expectRedacted(await call(sandbox.url, 'GET', '/v2/users/acme-carol/rights', { token: alice }), 403);
    expect((await call(sandbox.url, 'GET', '/v2/users/acme-carol/rights', { token: acmeAdmin })).status).toBe(200);
    expectRedacted(await call(sandbox.url, 'GET', '/v2/users/alice/rights', { token: acmeAdmin }), 403);
    expectError(await call(sandbox.url, 'GET', '/v2/users/nobody/rights', { token: admin }), 404, 'USER_NOT_FOUND');
  });
});
