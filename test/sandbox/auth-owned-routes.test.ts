import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { call } from '../support/sandbox-http.js';
import { createUser, expectRedacted, right, stateSnapshot, testSecret } from './auth-test-kit.js';

let sandbox: Sandbox;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  // 3.5: the newest line that still has the deprecated `/v2/package-vetting` alias, so its routes are covered too.
  sandbox = await startSandbox({ authSecret: testSecret, apiVersion: '3.5' });
  await createUser(sandbox, 'alice');
  await createUser(sandbox, 'gone', { rights: [right('ParticipantAdmin')] });
  await createUser(sandbox, 'sleeper', { rights: [right('ParticipantAdmin')] });
  tokens['bad signature'] = await sandbox.token('participant_admin', { secret: 'another-secret' });
  tokens['expired'] = await sandbox.token('participant_admin', { expiresInSeconds: -60 });
  tokens['unknown user'] = await sandbox.token('nobody-here');
  tokens['deleted user'] = await sandbox.token('gone');
  tokens['deactivated user'] = await sandbox.token('sleeper');
  tokens['wrong audience'] = await new SignJWT({ aud: 'https://daml.com/jwt/aud/participant/someone-else::1220' })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject('participant_admin')
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(testSecret));
  tokens['not a JWT'] = 'not-a-jwt';
  sandbox.state.users.delete('gone');
  const sleeper = sandbox.state.users.get('sleeper');
  if (sleeper) sleeper.isDeactivated = true;
});
afterAll(() => sandbox.close());

const vetBody = { changes: [{ operation: { Vet: { value: { packages: [{ packageName: 'ledger-rx-extras' }] } } } }] };
const routes: [string, string, unknown][] = [
  ['POST', '/v2/package-vetting/list', {}],
  ['GET', '/v2/package-vetting', {}],
  ['POST', '/v2/package-vetting/update', vetBody],
  ['POST', '/v2/package-vetting', vetBody],
  ['GET', '/v2/packages', undefined],
  ['POST', '/v2/users', { user: { id: 'newcomer' }, rights: [] }],
  ['GET', '/v2/users', undefined],
  ['GET', '/v2/users/alice', undefined],
  ['DELETE', '/v2/users/alice', undefined],
  ['PATCH', '/v2/users/alice', { user: { id: 'alice', isDeactivated: true }, updateMask: { paths: ['is_deactivated'] } }],
  ['GET', '/v2/users/alice/rights', undefined],
  ['POST', '/v2/users/alice/rights', { userId: 'alice', rights: [{ kind: { ParticipantAdmin: { value: {} } } }] }],
  ['PATCH', '/v2/users/participant_admin/rights', { userId: 'participant_admin', rights: [{ kind: { ParticipantAdmin: { value: {} } } }] }],
  ['GET', '/v2/authenticated-user', undefined],
];

const failures: [string, 401 | 403][] = [
  ['no token', 401],
  ['bad signature', 401],
  ['wrong audience', 401],
  ['not a JWT', 401],
  ['expired', 403],
  ['unknown user', 403],
  ['deleted user', 403],
  ['deactivated user', 403],
];

describe.each(routes)('%s %s', (method, path, body) => {
  it.each(failures)('answers a request with %s with the redacted %i and changes nothing', async (kind, status) => {
    const before = stateSnapshot(sandbox);
    const token = tokens[kind];
    const r = await call(sandbox.url, method, path, { specVersion: '3.5', ...(token === undefined ? {} : { token }), ...(body === undefined ? {} : { body }) });
    expectRedacted(r, status);
    expect(stateSnapshot(sandbox)).toBe(before);
  });
});

describe('token transport and formats', () => {
  it('accepts the token in Sec-WebSocket-Protocol and scope-based tokens', async () => {
    const token = await sandbox.token('participant_admin', { format: 'scope' });
    const viaHeader = await call(sandbox.url, 'GET', '/v2/authenticated-user', { headers: { 'sec-websocket-protocol': `daml.ws.auth, jwt.token.${token}` } });
    expect(viaHeader.status).toBe(200);
    expect((await call(sandbox.url, 'GET', '/v2/packages', { token })).status).toBe(200);
  });
});
