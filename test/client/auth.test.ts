import { Buffer } from 'node:buffer';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LedgerApiError } from '../../src/errors/index.js';
import { versionResponse } from './support/fixtures.js';
import { cantonError, createMockLedger } from './support/mock-ledger.js';

const redacted401 = cantonError({
  code: 'NA', cause: 'A security-sensitive error has been received', context: {}, resources: [], errorCategory: -1, grpcCodeValue: 16,
});

let ledger: ReturnType<typeof createMockLedger>;
afterEach(async () => {
  await ledger.done();
});

describe('authentication', () => {
  it('sends no Authorization header without a token', async () => {
    ledger = createMockLedger();
    ledger.expect('GET', '/v2/version', { data: versionResponse });
    await ledger.client.version();
    expect(ledger.requests[0]?.headers['authorization']).toBeUndefined();
  });

  it('sends a string token as Bearer on every request', async () => {
    ledger = createMockLedger({ token: 'jwt-static' });
    ledger.expect('GET', '/v2/version', { data: versionResponse }, 2);
    await ledger.client.version();
    await ledger.client.version();
    expect(ledger.requests.map((r) => r.headers['authorization'])).toEqual(['Bearer jwt-static', 'Bearer jwt-static']);
  });

  it('calls a sync token provider for every request', async () => {
    let n = 0;
    const provider = vi.fn(() => `jwt-${++n}`);
    ledger = createMockLedger({ token: provider });
    ledger.expect('GET', '/v2/state/ledger-end', { data: { offset: 1 } }, 3);
    for (let i = 0; i < 3; i++) await ledger.client.ledgerEnd();
    expect(provider).toHaveBeenCalledTimes(3);
    expect(ledger.requests.map((r) => r.headers['authorization'])).toEqual(['Bearer jwt-1', 'Bearer jwt-2', 'Bearer jwt-3']);
  });

  it('awaits an async token provider for every request', async () => {
    let n = 0;
    const provider = vi.fn(async () => {
      await new Promise((r) => setTimeout(r, 1));
      return `async-${++n}`;
    });
    ledger = createMockLedger({ token: provider });
    ledger.expect('GET', '/v2/state/ledger-end', { data: { offset: 1 } }, 2);
    await ledger.client.ledgerEnd();
    await ledger.client.ledgerEnd();
    expect(ledger.requests.map((r) => r.headers['authorization'])).toEqual(['Bearer async-1', 'Bearer async-2']);
  });

  it('on 401 fetches a fresh token and retries the same request once', async () => {
    let n = 0;
    const provider = vi.fn(async () => `jwt-${++n}`);
    ledger = createMockLedger({ token: provider });
    ledger.expect('POST', '/v2/commands/async/submit', { status: 401, data: redacted401 });
    ledger.expect('POST', '/v2/commands/async/submit', { data: {} });
    const body = { commands: [{ CreateCommand: { templateId: '#m:M:T', createArguments: {} } }], commandId: 'c', actAs: ['A::1'] };
    expect(await ledger.client.submit(body)).toEqual({});
    expect(provider).toHaveBeenCalledTimes(2);
    expect(ledger.requests.map((r) => r.headers['authorization'])).toEqual(['Bearer jwt-1', 'Bearer jwt-2']);
    expect(ledger.requests[1]?.body).toEqual(ledger.requests[0]?.body);
  });

  it('retries only once: a second 401 is the error', async () => {
    const provider = vi.fn(() => 'still-bad');
    ledger = createMockLedger({ token: provider });
    ledger.expect('GET', '/v2/state/ledger-end', { status: 401, data: redacted401 }, 2);
    const error = await ledger.client.ledgerEnd().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LedgerApiError);
    expect((error as LedgerApiError).status).toBe(401);
    expect((error as LedgerApiError).code).toBe('NA');
    expect(provider).toHaveBeenCalledTimes(2);
    expect(ledger.requests).toHaveLength(2);
    expect(ledger.dispatched()).toBe(2);
  });

  it('does not retry a 401 with a fixed string token (it could not change)', async () => {
    ledger = createMockLedger({ token: 'fixed' });
    ledger.expect('GET', '/v2/state/ledger-end', { status: 401, data: redacted401 });
    await expect(ledger.client.ledgerEnd()).rejects.toMatchObject({ status: 401, code: 'NA', retryable: false });
    expect(ledger.dispatched()).toBe(1);
  });

  it('on 403 for a token that had expired fetches a fresh token and retries once; a 403 for a live token is the error at once', async () => {
    const redacted403 = cantonError({
      code: 'NA', cause: 'A security-sensitive error has been received', context: {}, resources: [], errorCategory: -1, grpcCodeValue: 7,
    });
    const jwt = (exp: number) => ['e30', Buffer.from(JSON.stringify({ sub: 'streamer', exp })).toString('base64url'), 'sig'].join('.');
    const now = Math.floor(Date.now() / 1000);
    const tokens = [jwt(now - 5), jwt(now + 3600)];
    const provider = vi.fn(() => tokens.shift() ?? 'none');
    ledger = createMockLedger({ token: provider });
    ledger.expect('GET', '/v2/state/ledger-end', { status: 403, data: redacted403 });
    ledger.expect('GET', '/v2/state/ledger-end', { data: { offset: 7 } });
    expect(await ledger.client.ledgerEnd()).toEqual({ offset: 7 });
    expect(provider).toHaveBeenCalledTimes(2);
    await ledger.done();

    const live = vi.fn(() => jwt(now + 3600));
    ledger = createMockLedger({ token: live });
    ledger.expect('GET', '/v2/state/ledger-end', { status: 403, data: redacted403 });
    await expect(ledger.client.ledgerEnd()).rejects.toMatchObject({ status: 403, code: 'NA', retryable: false });
    expect(ledger.dispatched()).toBe(1);
    expect(live).toHaveBeenCalledTimes(1);
  });

  it('never puts the token in an error message or cause chain', async () => {
    const secret = 'eyJhbGciOi.super-secret.sig';
    ledger = createMockLedger({ token: () => secret });
    ledger.expect('GET', '/v2/state/ledger-end', { status: 401, data: redacted401 }, 2);
    const error = await ledger.client.ledgerEnd().catch((e: unknown) => e);
    let current: unknown = error;
    for (let depth = 0; current !== undefined && depth < 10; depth++) {
      expect(JSON.stringify(current, Object.getOwnPropertyNames(current as object))).not.toContain(secret);
      expect(String(current)).not.toContain(secret);
      current = (current as { cause?: unknown }).cause;
    }
  });
});
