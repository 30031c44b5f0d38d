import { firstValueFrom, toArray } from 'rxjs';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forbiddenHint } from '../../src/client/http/forbidden-hint.js';
import { createLedgerClient } from '../../src/client/create-ledger-client.js';
import type { LedgerClient } from '../../src/client/ledger-client.js';
import { LedgerApiError } from '../../src/errors/index.js';
import { updateFormat } from '../../src/filters/index.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';

/** An unsigned-looking JWT with `payload` (the hint decodes tokens without verifying them). */
const jwt = (payload: object) => `e30.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.sig`;
const tenKeys = ['code', 'cause', 'correlationId', 'traceId', 'context', 'resources', 'errorCategory', 'grpcCodeValue', 'retryInfo', 'definiteAnswer'];

describe('forbiddenHint', () => {
  const updates = (parties: string[], anyParty = false) => ({
    beginExclusive: 0,
    updateFormat: {
      includeTransactions: {
        eventFormat: { filtersByParty: Object.fromEntries(parties.map((p) => [p, { cumulative: [] }])), ...(anyParty ? { filtersForAnyParty: { cumulative: [] } } : {}), verbose: false },
        transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA',
      },
    },
  });

  it('names the filter parties and the any-party right of a read, and the user a user token is for', () => {
    expect(forbiddenHint({ method: 'POST', path: '/v2/updates', body: updates(['Alice::1'], true), token: jwt({ sub: 'participant_admin' }) })).toBe(
      "The participant checks CanReadAs(Alice::1) and CanReadAsAnyParty for this request; the token is for the user 'participant_admin', whose rights the participant keeps (see them with listUserRights('participant_admin'), add them with grantUserRights); ParticipantAdmin does not include reading or acting as a party.",
    );
  });

  it('names exactly the rights a custom-claims token lacks', () => {
    const token = jwt({ 'https://daml.com/ledger-api': { actAs: ['Alice::1'], readAs: ['Bob::1'] } });
    const body = { commands: { commands: [{ CreateCommand: { createArguments: { actAs: ['Eve::1'] } } }], actAs: ['Alice::1', 'Carol::1'], readAs: ['Bob::1', 'Dave::1'] } };
    expect(forbiddenHint({ method: 'POST', path: '/v2/commands/submit-and-wait-for-transaction', body, token })).toBe(
      "The participant checks CanActAs(Alice::1), CanActAs(Carol::1), CanReadAs(Bob::1) and CanReadAs(Dave::1) for this request; the token's claims lack CanActAs(Carol::1) and CanReadAs(Dave::1).",
    );
  });

  it('says when the token expired, when none was sent, and that administration needs ParticipantAdmin', () => {
    expect(forbiddenHint({ method: 'POST', path: '/v2/updates', body: updates(['A::1']), token: jwt({ sub: 'u', exp: 1_000_000 }) })).toContain('the token expired at 1970-01-12T13:46:40.000Z');
    expect(forbiddenHint({ method: 'POST', path: '/v2/updates', body: updates([]), token: '' })).toBe('No token was sent.');
    expect(forbiddenHint({ method: 'POST', path: '/v2/users', body: { user: { id: 'x' } }, token: jwt({ sub: 'alice' }) })).toMatch(/^The participant checks ParticipantAdmin for this request; the token is for the user 'alice'[^;]*\.$/);
    // a user reads its own rights without being an administrator; another user's is a mismatch
    expect(forbiddenHint({ method: 'GET', path: '/v2/users/bob/rights', token: jwt({ sub: 'alice' }) })).toContain("the request names the user 'bob', not the token's");
    expect(forbiddenHint({ method: 'POST', path: '/v2/commands/completions', body: { userId: 'alice', parties: [] }, token: jwt({ sub: 'alice' }) })).toContain('CanReadAsAnyParty');
  });

  it('says nothing it cannot know: an opaque token and a request without rights', () => {
    expect(forbiddenHint({ method: 'GET', path: '/v2/version', token: 'opaque' })).toBeUndefined();
  });
});

describe('a 403 from the sandbox, on every transport', () => {
  let sandbox: Sandbox;
  let admin: LedgerClient;
  let alice: string;
  beforeAll(async () => {
    sandbox = await startSandbox({ seed: 5, authSecret: 'test-secret' });
    alice = sandbox.partyId('Alice');
    admin = createLedgerClient({ baseUrl: sandbox.url, token: await sandbox.token('participant_admin') });
  });
  afterAll(async () => {
    await admin.close();
    await sandbox.close();
  });

  const asAlice = () => ({ beginExclusive: 0, endInclusive: sandbox.ledgerEnd(), updateFormat: updateFormat().transactions((t) => t.parties(alice)).build() });
  const expectHinted = (error: unknown, request: RegExp): void => {
    expect(error).toBeInstanceOf(LedgerApiError);
    const e = error as LedgerApiError;
    expect(e.status).toBe(403);
    expect(e.code).toBe('NA');
    expect(Object.keys(e.body ?? {}).sort()).toEqual([...tenKeys].sort()); // the server's answer, unchanged
    expect(e.request).toMatch(request);
    expect(e.hint).toContain(`CanReadAs(${alice})`);
    expect(e.hint).toContain("the user 'participant_admin'");
    expect(e.message).toContain(e.hint as string);
  };

  it('over the HTTP list, the pages and the WebSocket, the error names the party and the right', async () => {
    expectHinted(await firstValueFrom(admin.updates(asAlice()).pipe(toArray())).catch((e: unknown) => e), /^POST \/v2\/updates$/);
    expectHinted(await admin.updatesPage({ updateFormat: asAlice().updateFormat, maxPageSize: 10 }).catch((e: unknown) => e), /get-updates-page/);
    expectHinted(await firstValueFrom(admin.updates(asAlice(), { transport: 'websocket' }).pipe(toArray())).catch((e: unknown) => e), /\(WebSocket\)$/);
  });

  it('a token of a user without rights: the WebSocket error names the party, the right and the user', async () => {
    await admin.createUser({ user: { id: 'nobody', primaryParty: '', isDeactivated: false, identityProviderId: '' }, rights: [] });
    const nobody = createLedgerClient({ baseUrl: sandbox.url, token: await sandbox.token('nobody') });
    try {
      const error = (await firstValueFrom(nobody.updates(asAlice(), { transport: 'websocket' }).pipe(toArray())).catch((e: unknown) => e)) as LedgerApiError;
      expect(error.hint).toMatch(/^The participant checks CanReadAs\(Alice::\S+\) for this request; the token is for the user 'nobody'/);
    } finally {
      await nobody.close();
    }
  });

  it('the same read with a token of a user that has CanReadAs(Alice) succeeds', async () => {
    await admin.createUser({ user: { id: 'alice-reader', primaryParty: '', isDeactivated: false, identityProviderId: '' }, rights: [{ kind: { CanReadAs: { value: { party: alice } } } }] });
    const reader = createLedgerClient({ baseUrl: sandbox.url, token: await sandbox.token('alice-reader') });
    try {
      expect((await firstValueFrom(reader.updates(asAlice(), { transport: 'websocket' }).pipe(toArray()))).length).toBeGreaterThan(0);
    } finally {
      await reader.close();
    }
  });

  it('an expired token says so', async () => {
    const expired = await new SignJWT({ aud: `https://daml.com/jwt/aud/participant/${sandbox.state.participantId}` })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject('participant_admin')
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(new TextEncoder().encode('test-secret'));
    const late = createLedgerClient({ baseUrl: sandbox.url, token: expired });
    try {
      const error = (await late.updatesPage({ updateFormat: asAlice().updateFormat, maxPageSize: 10 }).catch((e: unknown) => e)) as LedgerApiError;
      expect(error.status).toBe(403);
      expect(error.hint).toMatch(/the token expired at \d{4}-/);
    } finally {
      await late.close();
    }
  });
});

describe('a WebSocket upgrade refused with 403', () => {
  it('carries the hint too, from the request frame that was not sent and the token', async () => {
    const { createServer } = await import('node:http');
    const body = JSON.stringify({ code: 'NA', cause: 'A security-sensitive error has been received', correlationId: null, traceId: null, context: {}, resources: [], errorCategory: -1, grpcCodeValue: 7, retryInfo: null, definiteAnswer: null });
    const server = createServer((_req, res) => res.writeHead(404).end());
    // a proxy or gateway that checks before the upgrade: the answer is the participant's redacted 403
    server.on('upgrade', (_req, socket) => {
      socket.end(`HTTP/1.1 403 Forbidden\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    const client = createLedgerClient({ baseUrl: `http://127.0.0.1:${port}`, token: jwt({ sub: 'bob' }) });
    try {
      const request = { beginExclusive: 0, endInclusive: 5, updateFormat: updateFormat().transactions((t) => t.parties('Alice::1220')).build() };
      const error = (await firstValueFrom(client.updates(request, { transport: 'websocket' }).pipe(toArray())).catch((e: unknown) => e)) as LedgerApiError;
      expect(error).toBeInstanceOf(LedgerApiError);
      expect(error.status).toBe(403);
      expect(error.request).toBe('GET /v2/updates (WebSocket)');
      expect(error.hint).toMatch(/^The participant checks CanReadAs\(Alice::1220\) for this request; the token is for the user 'bob'/);
    } finally {
      await client.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
