import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { rightKey } from '../../src/sandbox/state/users-store.js';
import { call } from '../support/sandbox-http.js';
import { openStream, readToClose } from '../support/sandbox-ws.js';
import { expectError, testSecret } from './auth-test-kit.js';
import { addUser, createIou, postUpdates, sleep, updateFormat } from './ledger-support.js';

type ErrorFrame = { code: string; errorCategory: number; grpcCodeValue: number; cause: string; retryInfo: string | null; context: Record<string, string> };

let sandbox: Sandbox;
let alice: string;
let fmt: Record<string, unknown>;

beforeAll(async () => {
  sandbox = await startSandbox({ authSecret: testSecret, seed: 20, userRightsCheckIntervalMs: 100 });
  alice = sandbox.partyId('Alice');
  fmt = updateFormat([alice]);
  addUser(sandbox, 'reader', [{ kind: 'CanReadAs', party: alice }]);
  addUser(sandbox, 'nobody', []);
});
afterAll(() => sandbox.close());

const bounded = () => ({ updateFormat: fmt, endInclusive: sandbox.ledgerEnd() });

describe('WebSocket authentication', () => {
  it('takes the token from the jwt.token.<JWT> subprotocol or from Authorization: Bearer', async () => {
    const token = await sandbox.token('reader');
    const viaProtocol = await readToClose(sandbox.url, '/v2/updates', bounded(), { token });
    const viaHeader = await readToClose(sandbox.url, '/v2/updates', bounded(), { headers: { authorization: `Bearer ${token}` } });
    expect(viaProtocol.close.code).toBe(1000);
    expect(viaProtocol.frames.length).toBeGreaterThan(0);
    expect(viaHeader.frames).toEqual(viaProtocol.frames);
  });

  it('a missing, invalid or expired token, or missing rights: the upgrade succeeds, then one redacted error frame and 1000', async () => {
    const cases: [string | undefined, number][] = [
      [undefined, 16],
      [await sandbox.token('reader', { secret: 'another-secret' }), 16],
      [await sandbox.token('reader', { expiresInSeconds: -60 }), 7],
      [await sandbox.token('nobody'), 7],
    ];
    for (const [token, grpc] of cases) {
      const { frames, close } = await readToClose(sandbox.url, '/v2/updates', bounded(), token === undefined ? {} : { token });
      expect(close.code).toBe(1000);
      expect(frames).toEqual([expect.objectContaining({ code: 'NA', errorCategory: -1, grpcCodeValue: grpc, cause: 'A security-sensitive error has been received' })]);
    }
  });

  it('a token whose user cannot be resolved is refused before the upgrade, with ledger_api_error in the context', async () => {
    const unknown = await sandbox.token('ghost');
    await expect(openStream(sandbox.url, '/v2/updates', bounded(), { token: unknown })).rejects.toThrow(/403/);
    const plain = await call(sandbox.url, 'POST', '/v2/updates?limit=1', { token: unknown, body: bounded() });
    expectError(plain, 403, 'NA');
  });
});

describe('ongoing authorization of streams (WebSocket and HTTP list)', () => {
  it('ACCESS_TOKEN_EXPIRED when an element is due after exp; a grace period keeps the stream going', async () => {
    const graceful = await startSandbox({ authSecret: testSecret, seed: 5, tokenExpiryGracePeriodMs: 60_000 });
    try {
      addUser(graceful, 'reader', [{ kind: 'CanReadAs', party: graceful.partyId('Alice') }]);
      const short = await sandbox.token('reader', { expiresInSeconds: 1 });
      const graceShort = await graceful.token('reader', { expiresInSeconds: 1 });
      const ws = await openStream(sandbox.url, '/v2/updates', { updateFormat: fmt, beginExclusive: sandbox.ledgerEnd() }, { token: short });
      const list = postUpdates(sandbox, { updateFormat: fmt, beginExclusive: sandbox.ledgerEnd() }, '?stream_idle_timeout_ms=5000', { token: short });
      const kept = await openStream(graceful.url, '/v2/updates', { updateFormat: updateFormat([graceful.partyId('Alice')]), beginExclusive: graceful.ledgerEnd() }, { token: graceShort });
      const exp = (JSON.parse(Buffer.from(short.split('.')[1] as string, 'base64url').toString()) as { exp: number }).exp * 1000;
      await sleep(Math.max(0, exp - Date.now()) + 50);
      await sandbox.submit({ commands: [createIou(alice, alice)], commandId: 'after-exp', actAs: [alice] });
      await graceful.submit({ commands: [createIou(graceful.partyId('Alice'), graceful.partyId('Alice'))], commandId: 'after-exp', actAs: [graceful.partyId('Alice')] });
      expect((await ws.closed).code).toBe(1000);
      expect(ws.frames.at(-1)).toMatchObject({ code: 'ACCESS_TOKEN_EXPIRED', errorCategory: 2, grpcCodeValue: 10, cause: 'JWT token has expired', retryInfo: '1 second' });
      expectError(await list, 409, 'ACCESS_TOKEN_EXPIRED');
      await kept.waitFrames(1);
      expect(kept.frames.every((f) => (f as { update?: unknown }).update !== undefined)).toBe(true);
      kept.ws.close();
    } finally {
      await graceful.close();
    }
  });

  it('STALE_STREAM_AUTHORIZATION when the user rights change mid-stream', async () => {
    addUser(sandbox, 'changing', [{ kind: 'CanReadAs', party: alice }]);
    const token = await sandbox.token('changing');
    const ws = await openStream(sandbox.url, '/v2/updates', { updateFormat: fmt }, { token });
    const list = postUpdates(sandbox, { updateFormat: fmt, beginExclusive: sandbox.ledgerEnd() }, '?stream_idle_timeout_ms=5000', { token });
    await sleep(150);
    const right = { kind: 'CanReadAs' as const, party: sandbox.partyId('Bob') };
    sandbox.state.users.get('changing')?.rights.set(rightKey(right), right);
    expect((await ws.closed).code).toBe(1000);
    expect(ws.frames.at(-1)).toMatchObject({ code: 'STALE_STREAM_AUTHORIZATION', errorCategory: 2, cause: 'Stale stream authorization. Retry quickly.' } satisfies Partial<ErrorFrame>);
    expectError(await list, 409, 'STALE_STREAM_AUTHORIZATION');
  });
});
