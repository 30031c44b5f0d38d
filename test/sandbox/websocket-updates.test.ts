import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { openStream, readToClose } from '../support/sandbox-ws.js';
import { call } from '../support/sandbox-http.js';
import { ACS, checkAgainstLog, postUpdates, sleep, updateFormat } from './ledger-support.js';

type Frame = { update?: Record<string, { value: { offset: number } }>; code?: string; cause?: string; context?: Record<string, string>; traceId?: string | null };

const kindOf = (f: unknown) => Object.keys((f as Frame).update ?? {})[0] ?? (f as Frame).code;
const offsetOf = (f: unknown) => {
  const u = (f as Frame).update ?? {};
  return (Object.values(u)[0] as { value: { offset: number } }).value.offset;
};

let sandbox: Sandbox;
let alice: string;
let fmt: Record<string, unknown>;

beforeAll(async () => {
  sandbox = await startSandbox({ seed: 60, idleCheckpointIntervalMs: 300 });
  alice = sandbox.partyId('Alice');
  fmt = updateFormat([alice]);
});
afterAll(() => sandbox.close());

describe('GET /v2/updates over WebSocket: the handshake', () => {
  it('answers with the subprotocol daml.ws.auth, offered or not; a client offering none fails the handshake', async () => {
    const s = await openStream(sandbox.url, '/v2/updates', { updateFormat: fmt, endInclusive: sandbox.ledgerEnd() }, { protocols: ['jwt.token.abc', 'daml.ws.auth'] });
    expect(s.protocol).toBe('daml.ws.auth');
    expect((await s.closed).code).toBe(1000);
    await expect(openStream(sandbox.url, '/v2/updates', {}, { protocols: [] })).rejects.toThrow(/subprotocol/);
  });

  it('an upgrade of an unknown path, and a plain GET of /v2/updates, get the legacy 404; other methods 405 with Allow', async () => {
    await expect(openStream(sandbox.url, '/v2/nope', {})).rejects.toThrow(/404/);
    const plain = await call(sandbox.url, 'GET', '/v2/updates');
    expect(plain.status).toBe(404);
    expect(plain.json).toEqual({ errors: [expect.stringMatching(/^GET, uri: http:\/\/.+\/v2\/updates$/)], status: 404 });
    const put = await call(sandbox.url, 'PUT', '/v2/updates', { body: {} });
    expect(put.status).toBe(405);
    expect(String(put.headers['allow']).split(', ').sort()).toEqual(['GET', 'POST']);
  });
});

describe('GET /v2/updates over WebSocket: streams', () => {
  it('a bounded stream sends exactly the elements of the HTTP list, one frame each, then closes with 1000', async () => {
    const end = sandbox.ledgerEnd();
    const list = await postUpdates(sandbox, { updateFormat: fmt, beginExclusive: 3, endInclusive: end }, '?limit=200');
    const { frames, close } = await readToClose(sandbox.url, '/v2/updates', { updateFormat: fmt, beginExclusive: 3, endInclusive: end });
    expect(close).toEqual({ code: 1000, reason: '' });
    expect(frames.length).toBeGreaterThan(5);
    expect(frames).toEqual(list.json);
    const offsets = frames.map(offsetOf);
    expect(offsets).toEqual([...offsets].sort((a, b) => a - b));
    expect(new Set(offsets).size).toBe(offsets.length);
  });

  it('elements larger than the write buffer (128 KiB) go out as whole frames, in order, the same as the HTTP list', async () => {
    const big = await startSandbox({ seed: 8, seedPayloadBytes: 150_000 });
    try {
      const party = big.partyId('Alice');
      const f = updateFormat([party]);
      const end = big.ledgerEnd();
      const list = await postUpdates(big, { updateFormat: f, beginExclusive: 0, endInclusive: end }, '?limit=200');
      const { frames, close } = await readToClose(big.url, '/v2/updates', { updateFormat: f, beginExclusive: 0, endInclusive: end });
      expect(close).toEqual({ code: 1000, reason: '' });
      expect(frames.filter((frame) => JSON.stringify(frame).length > 128 * 1024).length).toBeGreaterThan(1);
      expect(frames).toEqual(list.json);
    } finally {
      await big.close();
    }
  });

  it('descending and empty ranges end at once; a second request frame is ignored', async () => {
    const end = sandbox.ledgerEnd();
    const desc = await readToClose(sandbox.url, '/v2/updates', { updateFormat: fmt, beginExclusive: 10, endInclusive: end, descendingOrder: true });
    const offsets = desc.frames.map(offsetOf);
    expect(offsets).toEqual([...offsets].sort((a, b) => b - a));
    expect(offsets.every((o) => o > 10)).toBe(true);
    const empty = await readToClose(sandbox.url, '/v2/updates', { updateFormat: fmt, beginExclusive: 7, endInclusive: 7 });
    expect(empty).toMatchObject({ frames: [], close: { code: 1000 } });
    const s = await openStream(sandbox.url, '/v2/updates', { updateFormat: fmt, endInclusive: 5 });
    s.ws.send('{"this": "is ignored"}');
    expect((await s.closed).code).toBe(1000);
    expect(s.frames.every((f) => kindOf(f) !== undefined && (f as Frame).code === undefined)).toBe(true);
  });

  it('an open-ended stream stays open: the backlog, a checkpoint at rest, new updates as they are appended, idle checkpoints', async () => {
    const live = await startSandbox({ seed: 20, idleCheckpointIntervalMs: 250, checkpointIntervalMs: 100 });
    try {
      const bob = live.partyId('Bob');
      const s = await openStream(live.url, '/v2/updates', { updateFormat: updateFormat([bob]) });
      const backlog = live.updates().length;
      await s.waitFrames(1);
      await sleep(700); // past the 500 ms initial probe
      const atRest = s.frames.filter((f) => kindOf(f) === 'OffsetCheckpoint');
      expect(atRest.length).toBeGreaterThanOrEqual(1);
      const before = s.frames.length;
      live.seed(30);
      await s.waitFrames(before + 1);
      await sleep(800); // the cache refreshes (100 ms), then an idle probe (250 ms) finds the stream at rest at it
      const offsets = s.frames.map(offsetOf);
      expect(offsets.every((o, i) => i === 0 || o > (offsets[i - 1] as number))).toBe(true);
      expect(kindOf(s.frames.at(-1))).toBe('OffsetCheckpoint');
      expect(offsetOf(s.frames.at(-1))).toBe(live.ledgerEnd());
      expect(s.ws.readyState).toBe(WebSocket.OPEN);
      expect(live.webSocketSessions()).toEqual([expect.objectContaining({ path: '/v2/updates', paused: false })]);
      expect(backlog).toBeGreaterThan(0);
      s.ws.close(1000);
      expect((await s.closed).code).toBe(1000);
      await sleep(50);
      expect(live.webSocketSessions()).toEqual([]);
    } finally {
      await live.close();
    }
  });
});

describe('GET /v2/updates over WebSocket: bad input gets an error frame, then 1000, never a crash', () => {
  const cases: [string, () => unknown, string][] = [
    ['malformed JSON', () => '{"updateFormat": ', 'LEDGER_API_INTERNAL_ERROR'],
    ['a field of the wrong type', () => ({ updateFormat: fmt, beginExclusive: 'x' }), 'LEDGER_API_INTERNAL_ERROR'],
    ['filter and updateFormat both', () => ({ updateFormat: fmt, filter: { filtersByParty: {} } }), 'INVALID_ARGUMENT'],
    ['begin after the ledger end', () => ({ updateFormat: fmt, beginExclusive: 10 ** 9 }), 'OFFSET_AFTER_LEDGER_END'],
    ['descending without an end', () => ({ updateFormat: fmt, descendingOrder: true }), 'DESCENDING_ORDER_MISSING_END'],
    ['an unknown package name', () => ({ updateFormat: updateFormat([alice], undefined, { filters: { cumulative: [{ identifierFilter: { TemplateFilter: { value: { templateId: '#nope:A:B' } } } }] } }) }), 'PACKAGE_NAMES_NOT_FOUND'],
  ];
  it.each(cases)('%s', async (_, req, code) => {
    const { frames, close } = await readToClose(sandbox.url, '/v2/updates', req());
    expect(close).toEqual({ code: 1000, reason: '' });
    expect(frames).toHaveLength(1);
    expect((frames[0] as Frame).code).toBe(code);
  });

  it('a frame-decoding error is a JSON-layer error without a trace id; a participant error carries the traceparent of the upgrade', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const headers = { traceparent: `00-${traceId}-00f067aa0ba902b7-01` };
    const decode = await readToClose(sandbox.url, '/v2/updates', '[1,', { headers });
    expect(decode.frames[0]).toMatchObject({ code: 'LEDGER_API_INTERNAL_ERROR', errorCategory: 4, traceId: null, correlationId: null, definiteAnswer: false });
    expect((decode.frames[0] as Frame).cause).toMatch(/^Cannot decode frame: /);
    const binary = await readToClose(sandbox.url, '/v2/updates', { updateFormat: fmt }, { binary: true });
    expect((binary.frames[0] as Frame).code).toBe('LEDGER_API_INTERNAL_ERROR');
    const grpc = await readToClose(sandbox.url, '/v2/updates', { updateFormat: fmt, beginExclusive: -1 }, { headers });
    expect(grpc.frames[0]).toMatchObject({ code: 'NEGATIVE_OFFSET', traceId, context: expect.objectContaining({ tid: traceId }) });
  });

  it('a pruned begin is PARTICIPANT_PRUNED_DATA_ACCESSED with earliest_offset', async () => {
    const pruned = await startSandbox({ seed: 10 });
    try {
      pruned.prune(5);
      const { frames } = await readToClose(pruned.url, '/v2/updates', { updateFormat: updateFormat([pruned.partyId('Alice')]), beginExclusive: 2 });
      expect(frames[0]).toMatchObject({ code: 'PARTICIPANT_PRUNED_DATA_ACCESSED', context: expect.objectContaining({ earliest_offset: '5' }) });
      expect((await call(pruned.url, 'GET', '/v2/version')).status).toBe(200);
    } finally {
      await pruned.close();
    }
  });
});

describe('GET /v2/updates over WebSocket: faults', () => {
  const req = () => ({ updateFormat: fmt, endInclusive: sandbox.ledgerEnd() });
  it('drop: the connection ends after N frames without a close frame (1006)', async () => {
    sandbox.injectFault({ kind: 'drop', afterElements: 3 });
    const { frames, close } = await readToClose(sandbox.url, '/v2/updates', req());
    expect(frames).toHaveLength(3);
    expect(close.code).toBe(1006);
  });

  it('close-1011: after N frames the server closes with 1011 "internal error"', async () => {
    sandbox.injectFault({ kind: 'close-1011', afterElements: 2 });
    const { frames, close } = await readToClose(sandbox.url, '/v2/updates', req());
    expect(frames).toHaveLength(2);
    expect(close).toEqual({ code: 1011, reason: 'internal error' });
  });

  it('truncate: half of the next frame, then the connection is cut; a malformed-json frame is sent as one frame', async () => {
    sandbox.injectFault({ kind: 'truncate', afterElements: 2, transport: 'websocket' });
    const cut = await readToClose(sandbox.url, '/v2/updates', req());
    expect(cut.frames).toHaveLength(2);
    expect(cut.close.code).toBe(1006);
    sandbox.injectFault({ kind: 'malformed-json', afterElements: 1, transport: 'websocket' });
    const bad = await readToClose(sandbox.url, '/v2/updates', req(), { skipSpecCheck: true });
    expect(bad.frames[1]).toBeUndefined(); // not JSON
    expect(bad.texts.length).toBeGreaterThan(3);
    expect(bad.close.code).toBe(1000);
  });

  it('stall: after N frames nothing more comes, the connection stays open and answers pings', async () => {
    sandbox.injectFault({ kind: 'stall', afterElements: 2 });
    const s = await openStream(sandbox.url, '/v2/updates', req());
    await s.waitFrames(2);
    await sleep(300);
    expect(s.frames).toHaveLength(2);
    const pong = new Promise((resolve) => s.ws.once('pong', resolve));
    s.ws.ping();
    await pong;
    s.ws.terminate();
  });

  it('an HTTP-only fault leaves WebSocket streams alone, and a WebSocket-only kind cannot target HTTP', async () => {
    sandbox.injectFault({ kind: 'malformed-json', afterElements: 1, transport: 'http' });
    const clean = await readToClose(sandbox.url, '/v2/updates', req());
    expect(clean.close.code).toBe(1000);
    const list = await request(`${sandbox.url}/v2/updates`, { method: 'POST', body: JSON.stringify(req()), headers: { 'content-type': 'application/json' } });
    const text = await list.body.text();
    expect(() => JSON.parse(text)).toThrow(); // the HTTP answer got the fault
    expect(() => sandbox.injectFault({ kind: 'drop', afterElements: 1, transport: 'http' })).toThrow(RangeError);
  });
});

describe('GET /v2/updates over WebSocket: idle connections and backpressure', () => {
  it('a connection without frames either way is dropped after webSocketIdleTimeoutMs; client pings keep it open', async () => {
    const idle = await startSandbox({ webSocketIdleTimeoutMs: 300 });
    try {
      const f = updateFormat([idle.partyId('Alice')]);
      const silent = await openStream(idle.url, '/v2/updates', { updateFormat: f, beginExclusive: 0 });
      const pinged = await openStream(idle.url, '/v2/updates', { updateFormat: f, beginExclusive: 0 });
      const timer = setInterval(() => pinged.ws.ping(), 100);
      expect((await silent.closed).code).toBe(1006);
      await sleep(400);
      expect(pinged.ws.readyState).toBe(WebSocket.OPEN);
      clearInterval(timer);
      pinged.ws.close();
      await pinged.closed;
    } finally {
      await idle.close();
    }
  });

  it('a client that stops reading stops the producer: the sandbox buffers a bounded amount, then the stream completes intact', async () => {
    const big = await startSandbox({ seed: 6000, seedPayloadBytes: 2000 });
    try {
      const party = big.partyId('Alice');
      const f = updateFormat([party]);
      const end = big.ledgerEnd();
      const s = await openStream(big.url, '/v2/updates', { updateFormat: f, endInclusive: end }, { skipSpecCheck: true });
      s.ws.pause();
      let info = big.webSocketSessions()[0];
      for (let i = 0; i < 100 && !info?.paused; i++) {
        await sleep(20);
        info = big.webSocketSessions()[0];
      }
      expect(info?.paused).toBe(true);
      const sentWhilePaused = info?.framesSent ?? 0;
      await sleep(300);
      const later = big.webSocketSessions()[0];
      expect(later?.framesSent).toBe(sentWhilePaused); // the producer waits
      expect(later?.bufferedBytes).toBeLessThanOrEqual(256 * 1024 + 8 * 1024);
      s.ws.resume();
      const close = await s.closed;
      expect(close.code).toBe(1000);
      expect(s.frames.length).toBeGreaterThan(sentWhilePaused);
      checkAgainstLog(big, s.frames, { transactions: { shape: ACS, parties: [party] } }, { beginExclusive: 0, endInclusive: end });
    } finally {
      await big.close();
    }
  });
});
