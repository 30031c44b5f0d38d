import { request } from 'undici';
import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLedgerClient } from '../../src/client/index.js';
import { LedgerApiError, TransportError } from '../../src/errors/index.js';
import { isListTooLarge } from '../../src/retry/index.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { randomFaults, requestTimeoutText, startFaultProxy, type Fault, type FaultProxy } from '../support/fault-proxy.js';
import { reportFigures, viewFormat } from '../support/ledger-oracle.js';
import { specAvailable } from '../support/shared-dir.js';
import { specProblems } from '../support/spec-validator.js';

/**
 * The proxy does what each fault says (checked with raw HTTP, not through the client), and the client maps
 * each fault of one unary call to the documented typed error.
 */

let sandbox: Sandbox;
let proxy: FaultProxy;
let checked = 0;
const body = () => JSON.stringify({ beginExclusive: 0, endInclusive: sandbox.ledgerEnd(), updateFormat: viewFormat({ parties: 'any', shape: 'TRANSACTION_SHAPE_ACS_DELTA' }) });

/** A raw POST /v2/updates through the proxy: status, the bytes received, and how it ended. */
async function raw(path = '/v2/updates?limit=50'): Promise<{ status: number; bytes: Buffer; error: unknown; ms: number; headers: Record<string, unknown> }> {
  const started = Date.now();
  const chunks: Buffer[] = [];
  try {
    const res = await request(`${proxy.url}${path}`, { method: 'POST', body: body(), headers: { 'content-type': 'application/json' } });
    try {
      for await (const c of res.body) chunks.push(c as Buffer);
      return { status: res.statusCode, bytes: Buffer.concat(chunks), error: undefined, ms: Date.now() - started, headers: res.headers };
    } catch (error) {
      return { status: res.statusCode, bytes: Buffer.concat(chunks), error, ms: Date.now() - started, headers: res.headers };
    }
  } catch (error) {
    return { status: 0, bytes: Buffer.alloc(0), error, ms: Date.now() - started, headers: {} };
  }
}

let reference: Buffer;
beforeAll(async () => {
  sandbox = await startSandbox({ seed: 30 });
  proxy = await startFaultProxy({ target: sandbox.url, restart: () => sandbox.restart() });
  proxy.schedule([]);
  const direct = await request(`${sandbox.url}/v2/updates?limit=50`, { method: 'POST', body: body(), headers: { 'content-type': 'application/json' } });
  reference = Buffer.from(await direct.body.arrayBuffer());
  expect(reference.length).toBeGreaterThan(1000);
});
afterAll(async () => {
  await proxy.close();
  await sandbox.close();
  reportFigures('fault-proxy', { faultKindsChecked: checked });
});

describe('the fault proxy (raw HTTP)', () => {
  it('passes a request through untouched', async () => {
    proxy.schedule([{ kind: 'pass' }]);
    const r = await raw();
    expect(r.error).toBeUndefined();
    expect(r.bytes.equals(reference)).toBe(true);
    expect(proxy.log.map((l) => [l.index, l.fault, l.upstreamStatus])).toEqual([[0, 'pass', 200]]);
    checked++;
  });

  it('cuts the body at a chosen byte, keeping the content-length, and at a random byte inside the body', async () => {
    proxy.schedule([{ kind: 'cut', at: 1234 }, { kind: 'cut', at: 'random' }, { kind: 'cut', at: 10 ** 9, reset: true }], { seed: 5 });
    const chosen = await raw();
    expect(chosen.status).toBe(200);
    expect(chosen.headers['content-length']).toBe(String(reference.length));
    expect(chosen.error).toBeDefined();
    expect(chosen.bytes.equals(reference.subarray(0, 1234))).toBe(true);
    const random = await raw();
    expect(random.error).toBeDefined();
    const at = proxy.log[1]?.cutAt as number;
    expect(at).toBeGreaterThanOrEqual(0);
    expect(at).toBeLessThan(reference.length);
    expect(random.bytes.equals(reference.subarray(0, at))).toBe(true);
    const clamped = await raw();
    expect(clamped.error).toBeDefined();
    expect(clamped.bytes.length).toBe(reference.length - 1); // always inside the body: at least one byte short
    checked += 2;
  });

  it('stalls before the headers, then passes or cuts', async () => {
    proxy.schedule([{ kind: 'stall-headers', ms: 150 }, { kind: 'stall-headers', ms: 50, then: 'cut' }]);
    const passed = await raw();
    expect(passed.ms).toBeGreaterThanOrEqual(140);
    expect(passed.bytes.equals(reference)).toBe(true);
    const cut = await raw();
    expect(cut.status).toBe(0);
    expect(cut.error).toBeDefined();
    checked++;
  });

  it('stalls in the middle of the body, then sends the rest or cuts', async () => {
    proxy.schedule([{ kind: 'stall-body', at: 500, ms: 150 }, { kind: 'stall-body', at: 700, ms: 20, then: 'cut' }]);
    const passed = await raw();
    expect(passed.ms).toBeGreaterThanOrEqual(140);
    expect(passed.error).toBeUndefined();
    expect(passed.bytes.equals(reference)).toBe(true);
    const cut = await raw();
    expect(cut.error).toBeDefined();
    expect(cut.bytes.equals(reference.subarray(0, 700))).toBe(true);
    checked++;
  });

  it('answers 503 text/plain like the request timeout, 429/504/413 with complete Canton bodies, 401 redacted', async () => {
    const statuses = [503, 429, 504, 413, 401] as const;
    proxy.schedule(statuses.map((status) => ({ kind: 'status', status, retryInfo: '7 milliseconds' })));
    for (const status of statuses) {
      const r = await raw();
      expect(r.status).toBe(status);
      const text = r.bytes.toString('utf8');
      if (status === 503) {
        expect(r.headers['content-type']).toMatch(/^text\/plain/);
        expect(text).toBe(requestTimeoutText);
        continue;
      }
      const json = JSON.parse(text) as Record<string, unknown>;
      expect(Object.keys(json).sort()).toEqual(
        ['code', 'cause', 'correlationId', 'traceId', 'context', 'resources', 'errorCategory', 'grpcCodeValue', 'retryInfo', 'definiteAnswer'].sort(),
      );
      if (specAvailable()) expect(specProblems('POST', '/v2/updates', status, json)).toEqual([]);
      if (status === 401) expect(json).toMatchObject({ code: 'NA', errorCategory: -1, grpcCodeValue: 16, retryInfo: null });
      else expect(json['retryInfo']).toBe('7 milliseconds');
    }
    expect(proxy.log.every((l) => l.upstreamStatus === undefined)).toBe(true); // answered by the proxy itself
    checked += 5;
  });

  it('expires a token: that token keeps getting 401 without consuming the schedule, a fresh one passes', async () => {
    let expiredCalls = 0;
    proxy.onTokenExpired = () => expiredCalls++;
    proxy.schedule([{ kind: 'expire-token' }, { kind: 'cut', at: 3 }]);
    const send = (token: string) => request(`${proxy.url}/v2/state/ledger-end`, { headers: { authorization: `Bearer ${token}` } });
    expect((await send('old')).statusCode).toBe(401);
    expect((await send('old')).statusCode).toBe(401);
    expect(proxy.pending()).toBe(1);
    const fresh = await send('new');
    expect(fresh.statusCode).toBe(200);
    await expect(fresh.body.text()).rejects.toThrow(); // the next entry (cut) applied to the fresh token's request
    expect(expiredCalls).toBe(1);
    expect(proxy.log.map((l) => l.fault)).toEqual(['expire-token', 'expired-token', 'cut']);
    proxy.onTokenExpired = undefined;
    checked++;
  });

  it('restarts the sandbox mid-request: the connection is cut, the state is kept, later requests are served', async () => {
    const end = sandbox.ledgerEnd();
    proxy.schedule([{ kind: 'restart' }]);
    const cut = await raw();
    expect(cut.status).toBe(0);
    expect(cut.error).toBeDefined();
    let after = await raw();
    for (let i = 0; i < 50 && after.status !== 200; i++) after = await raw(); // refused while restarting
    expect(after.bytes.equals(reference)).toBe(true);
    expect(sandbox.ledgerEnd()).toBe(end);
    checked++;
  });

  it('resets the connection before forwarding', async () => {
    proxy.schedule([{ kind: 'reset' }]);
    const r = await raw();
    expect(r.status).toBe(0);
    expect(String((r.error as { code?: string }).code ?? (r.error as Error).message)).toMatch(/ECONNRESET|UND_ERR_SOCKET|other side closed/);
    checked++;
  });

  it('applies a schedule only to matching requests, in arrival order; a seeded policy is deterministic', async () => {
    proxy.schedule([{ kind: 'status', status: 503 }], { match: (method) => method === 'POST' });
    const get = await request(`${proxy.url}/v2/state/ledger-end`);
    expect(get.statusCode).toBe(200);
    await get.body.dump();
    expect(proxy.pending()).toBe(1);
    expect((await raw()).status).toBe(503);
    expect(proxy.pending()).toBe(0);
    expect((await raw()).status).toBe(200);
    const a = randomFaults({ seed: 9, rate: 0.5 });
    const b = randomFaults({ seed: 9, rate: 0.5 });
    const drawn = Array.from({ length: 40 }, (_, i) => a(i, { method: 'POST', path: '/' }));
    expect(Array.from({ length: 40 }, (_, i) => b(39 - i, { method: 'POST', path: '/' })).reverse()).toEqual(drawn);
    expect(drawn.filter((f) => f.kind !== 'pass').length).toBeGreaterThan(5);
  });
});

describe('the fault proxy (raw WebSocket frames)', () => {
  /** A raw `ws` stream through the proxy: the frames received, and how it ended (close code, or the refusal status). */
  function rawStream(opts: { pingEveryMs?: number; untilMs?: number } = {}): Promise<{ frames: string[]; close?: number; status?: number | undefined; pongs: number }> {
    return new Promise((resolve) => {
      const socket = new WebSocket(`${proxy.url.replace('http:', 'ws:')}/v2/updates`, ['daml.ws.auth']);
      const out: { frames: string[]; close?: number; status?: number | undefined; pongs: number } = { frames: [], pongs: 0 };
      let pinger: ReturnType<typeof setInterval> | undefined;
      socket.on('open', () => {
        socket.send(JSON.stringify({ beginExclusive: 0, updateFormat: viewFormat({ parties: 'any', shape: 'TRANSACTION_SHAPE_ACS_DELTA' }) }));
        if (opts.pingEveryMs) pinger = setInterval(() => socket.ping(), opts.pingEveryMs);
        if (opts.untilMs) setTimeout(() => socket.terminate(), opts.untilMs);
      });
      socket.on('message', (data) => out.frames.push(String(data)));
      socket.on('pong', () => out.pongs++);
      socket.on('unexpected-response', (_req, res) => {
        out.status = res.statusCode;
        res.resume();
        socket.terminate();
      });
      socket.on('error', () => undefined);
      socket.on('close', (code) => {
        clearInterval(pinger);
        resolve({ ...out, ...(out.status === undefined ? { close: code } : {}) });
      });
    });
  }

  it('passes frames through, and cuts, closes, stalls, ends with an expired token, or refuses the upgrade as scheduled', async () => {
    proxy.schedule([
      { kind: 'pass' },
      { kind: 'ws-cut', afterFrames: 3 },
      { kind: 'ws-close', afterFrames: 3, code: 1011 },
      { kind: 'ws-token-expired', afterFrames: 2 },
      { kind: 'ws-stall', afterFrames: 3 },
      { kind: 'refuse', status: 404 },
      { kind: 'refuse', status: 426 },
    ]);
    const passed = await rawStream({ untilMs: 300 });
    expect(passed.frames.length).toBeGreaterThan(5);
    const cut = await rawStream();
    expect(cut).toMatchObject({ close: 1006 });
    expect(cut.frames).toEqual(passed.frames.slice(0, 3));
    expect(await rawStream()).toMatchObject({ close: 1011, frames: passed.frames.slice(0, 3) });
    const expired = await rawStream();
    expect(expired.close).toBe(1000);
    expect(expired.frames.slice(0, 2)).toEqual(passed.frames.slice(0, 2));
    expect(JSON.parse(expired.frames[2] as string)).toMatchObject({ code: 'ACCESS_TOKEN_EXPIRED', errorCategory: 2 });
    const stalled = await rawStream({ pingEveryMs: 30, untilMs: 250 });
    expect(stalled.frames).toEqual(passed.frames.slice(0, 3));
    expect(stalled.pongs).toBe(0); // nothing comes back, pongs included
    expect(await rawStream()).toMatchObject({ status: 404, frames: [] });
    expect(await rawStream()).toMatchObject({ status: 426, frames: [] });
    expect(proxy.log.map((l) => l.fault)).toEqual(['pass', 'ws-cut', 'ws-close', 'ws-token-expired', 'ws-stall', 'refuse', 'refuse']);
    checked += 6;
  });
});

describe('the client maps each fault of one call to a typed error', () => {
  const cases: { fault: Fault; check: (e: unknown) => void }[] = [
    { fault: { kind: 'cut', at: 'random' }, check: (e) => expect(e).toMatchObject({ name: 'TransportError', retryable: true }) },
    { fault: { kind: 'cut', at: 0, reset: true }, check: (e) => expect(e).toMatchObject({ name: 'TransportError', retryable: true }) },
    { fault: { kind: 'reset' }, check: (e) => expect(e).toMatchObject({ name: 'TransportError', code: 'CONNECTION_RESET', retryable: true }) },
    { fault: { kind: 'stall-headers', ms: 1, then: 'cut' }, check: (e) => expect(e).toBeInstanceOf(TransportError) },
    { fault: { kind: 'stall-headers', ms: 2_000 }, check: (e) => expect(e).toMatchObject({ name: 'TransportError', code: 'REQUEST_TIMEOUT' }) },
    { fault: { kind: 'status', status: 503 }, check: (e) => expect(e).toMatchObject({ name: 'LedgerApiError', code: 'HTTP_503', status: 503, retryable: true, text: requestTimeoutText }) },
    {
      fault: { kind: 'status', status: 429, retryInfo: '250 milliseconds' },
      check: (e) => expect(e).toMatchObject({ name: 'LedgerApiError', code: 'PARTICIPANT_BACKPRESSURE', status: 429, retryable: true, retryAfterMs: 250 }),
    },
    { fault: { kind: 'status', status: 504 }, check: (e) => expect(e).toMatchObject({ code: 'REQUEST_TIME_OUT', status: 504, retryable: true, retryAfterMs: 1000 }) },
    { fault: { kind: 'status', status: 413 }, check: (e) => expect(isListTooLarge(e)).toBe(true) },
    { fault: { kind: 'status', status: 401 }, check: (e) => expect(e).toMatchObject({ name: 'LedgerApiError', code: 'NA', status: 401, grpcCodeValue: 16, retryable: false }) },
  ];

  it.each(cases.map((c) => [c.fault.kind === 'status' ? `status ${c.fault.status}` : JSON.stringify(c.fault), c] as const))('%s', async (_name, { fault, check }) => {
    proxy.schedule([fault]);
    const client = createLedgerClient({ baseUrl: proxy.url, token: 'fixed-token', timeoutMs: 300 });
    try {
      const error = await client.ledgerEnd().catch((e: unknown) => e);
      check(error);
      expect(proxy.log).toHaveLength(1); // a unary call is never retried (except a 401 with a provider)
      expect(await client.ledgerEnd()).toMatchObject({ offset: sandbox.ledgerEnd() });
    } finally {
      await client.close();
    }
  });

  it('a 401 (expired token) is retried once with a fresh token from the provider, invisibly', async () => {
    proxy.schedule([{ kind: 'expire-token' }]);
    let calls = 0;
    const client = createLedgerClient({ baseUrl: proxy.url, token: () => `token-${++calls}` });
    try {
      expect(await client.ledgerEnd()).toMatchObject({ offset: sandbox.ledgerEnd() });
      expect(calls).toBe(2);
      expect(proxy.log.map((l) => l.fault)).toEqual(['expire-token', 'pass']);
      const fixed = createLedgerClient({ baseUrl: proxy.url, token: 'token-1' });
      const error = await fixed.ledgerEnd().catch((e: unknown) => e);
      await fixed.close();
      expect(error).toBeInstanceOf(LedgerApiError);
      expect(error).toMatchObject({ status: 401, code: 'NA' });
    } finally {
      await client.close();
    }
  });
});
