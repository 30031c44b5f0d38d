import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { computeRunStats } from '../../src/cli/report/compute-run-stats.js';
import { createJsonLogger } from '../../src/cli/log/create-json-logger.js';
import { formatProgress } from '../../src/cli/report/format-progress.js';
import { NdjsonWriter } from '../../src/cli/output/ndjson-writer.js';
import { diffVettedPackages } from '../../src/cli/ops/diff-vetted-packages.js';
import { formatRight } from '../../src/cli/ops/format-right.js';
import { formatVettedPackages } from '../../src/cli/ops/format-vetted-packages.js';
import { toWireElement } from '../../src/updates/to-wire-element.js';
import { decodeUpdateElement } from '../../src/updates/decode-update-element.js';
import type { JsGetUpdatesResponse } from '../../src/schemas/updates.js';

const tx = (offset: number): JsGetUpdatesResponse =>
  ({ update: { Transaction: { value: { updateId: `u${offset}`, offset, events: [], synchronizerId: 's', recordTime: 't', effectiveAt: 't' } } } }) as unknown as JsGetUpdatesResponse;

describe('NDJSON writing', () => {
  it('writes one compact line per element, as the server sent it', async () => {
    const sink = new PassThrough();
    let text = '';
    sink.setEncoding('utf8').on('data', (d: string) => (text += d));
    const writer = new NdjsonWriter(sink);
    writer.write(tx(1));
    writer.write(tx(3));
    await writer.flush();
    expect(text).toBe(`${JSON.stringify(tx(1))}\n${JSON.stringify(tx(3))}\n`);
    expect(writer.count).toBe(2);
    expect(writer.bytes).toBe(Buffer.byteLength(text));
  });

  it('puts unknown variants back in their wire form', () => {
    const raw = {
      update: {
        Transaction: { value: { offset: 5, events: [{ FutureEvent: { a: 1 } }, { CreatedEvent: { offset: 5 } }] } },
      },
    };
    const decoded = decodeUpdateElement(raw, 0, { validate: false });
    expect(JSON.stringify(decoded)).not.toBe(JSON.stringify(raw));
    expect(toWireElement(decoded)).toEqual(raw);
    const unknownUpdate = { update: { FutureUpdate: { value: { offset: 9 } } } };
    expect(toWireElement(decodeUpdateElement(unknownUpdate, 0, { validate: false }))).toEqual(unknownUpdate);
    const topology = { update: { TopologyTransaction: { value: { offset: 2, events: [{ event: { ParticipantAuthorizationFuture: { value: {} } } }] } } } };
    expect(toWireElement(decodeUpdateElement(topology, 0, { validate: false }))).toEqual(topology);
    const known = tx(4);
    expect(toWireElement(known)).toBe(known);
  });

  it('reports backpressure and resolves drained() once the buffer emptied', async () => {
    const chunks: string[] = [];
    let release: (() => void) | undefined;
    const slow = new Writable({
      highWaterMark: 64,
      write(chunk: Buffer, _enc, callback) {
        chunks.push(chunk.toString());
        release = callback;
      },
    });
    const writer = new NdjsonWriter(slow);
    expect(writer.write(tx(1))).toBe(false); // one line exceeds the 64-byte high-water mark
    let drained = false;
    const waiting = writer.drained().then(() => (drained = true));
    await new Promise((r) => setImmediate(r));
    expect(drained).toBe(false);
    release?.();
    await waiting;
    expect(drained).toBe(true);
  });

  it('flush waits for every pending write, then syncs', async () => {
    const order: string[] = [];
    const callbacks: (() => void)[] = [];
    const held = new Writable({
      write(_chunk, _enc, callback) {
        callbacks.push(callback);
      },
    });
    const writer = new NdjsonWriter(held, async () => {
      order.push('sync');
    });
    writer.write(tx(1));
    const flushed = writer.flush().then(() => order.push('flushed'));
    await new Promise((r) => setImmediate(r));
    expect(order).toEqual([]);
    callbacks.shift()?.();
    await flushed;
    expect(order).toEqual(['sync', 'flushed']);
  });

  it('keeps a stream error: write throws, flush rejects', async () => {
    const broken = new Writable({
      write(_chunk, _enc, callback) {
        callback(Object.assign(new Error('EPIPE'), { code: 'EPIPE' }));
      },
    });
    broken.on('error', () => undefined);
    const writer = new NdjsonWriter(broken);
    writer.write(tx(1));
    await expect(writer.flush()).rejects.toThrow('EPIPE');
    expect(() => writer.write(tx(2))).toThrow('EPIPE');
    expect((writer.error as NodeJS.ErrnoException).code).toBe('EPIPE');
  });
});

describe('progress and stats', () => {
  it('formats the progress line', () => {
    expect(formatProgress({ count: 12345, rate: 812.4, lastOffset: 98765, ledgerEnd: 98777 })).toBe('12,345 updates · 812/s · offset 98,765 · lag 12');
    expect(formatProgress({ count: 3, rate: 2.5, lastOffset: undefined, ledgerEnd: 10 })).toBe('3 updates · 2.5/s · offset - · lag ?');
    expect(formatProgress({ count: 0, rate: 0, lastOffset: 20, ledgerEnd: 10 })).toBe('0 updates · 0/s · offset 20 · lag 0');
  });

  it('computes the stats summary', () => {
    expect(computeRunStats({ count: 500, bytes: 1234, elapsedMs: 2000.4, firstOffset: 3, lastOffset: 900, retries: 2 })).toEqual({
      count: 500,
      bytes: 1234,
      seconds: 2,
      updatesPerSecond: 250,
      firstOffset: 3,
      lastOffset: 900,
      retries: 2,
      transport: null,
    });
    expect(computeRunStats({ count: 1, bytes: 1, elapsedMs: 1, firstOffset: 1, lastOffset: 1, retries: 0, transport: 'websocket' })).toMatchObject({ transport: 'websocket' });
    expect(computeRunStats({ count: 0, bytes: 0, elapsedMs: 0, firstOffset: undefined, lastOffset: undefined, retries: 0 })).toMatchObject({
      updatesPerSecond: 0,
      firstOffset: null,
      lastOffset: null,
    });
  });
});

describe('JSON logger', () => {
  it('writes pino-shaped lines at or above its level and redacts secrets', () => {
    const lines: string[] = [];
    const logger = createJsonLogger({ level: 'info', write: (l) => lines.push(l), now: () => 1000 });
    logger.debug({ a: 1 }, 'hidden');
    logger.info({ offset: 7, token: 'eyJhbGciOi', err: new Error('boom') }, 'hello');
    logger.error({}, 'bad');
    expect(lines.map((l) => JSON.parse(l))).toEqual([
      { level: 30, time: 1000, msg: 'hello', offset: 7, token: '[redacted]', err: { type: 'Error', message: 'boom' } },
      { level: 50, time: 1000, msg: 'bad' },
    ]);
    expect(lines.every((l) => l.endsWith('\n'))).toBe(true);
    const silent: string[] = [];
    createJsonLogger({ level: 'silent', write: (l) => silent.push(l) }).error({}, 'x');
    expect(silent).toEqual([]);
  });
});

describe('operator output', () => {
  const pkg = (id: string, name: string, version: string, from: string | null = null) => ({
    packageId: id.padEnd(64, '0'),
    packageName: name,
    packageVersion: version,
    validFromInclusive: from,
    validUntilExclusive: null,
  });
  const state = (serial: number, packages: ReturnType<typeof pkg>[]) => ({ packages, participantId: 'p1::1220', synchronizerId: 'sync::1220', topologySerial: serial });

  it('formats a vetting state as a table', () => {
    expect(formatVettedPackages(state(3, [pkg('bb', 'zeta', '1.0.0'), pkg('aa', 'alpha', '1.10.0'), pkg('cc', 'alpha', '1.9.0', '2026-01-01T00:00:00Z')]))).toBe(
      [
        'synchronizer sync::1220  participant p1::1220  serial 3',
        '  alpha  1.9.0   cc0000000000  2026-01-01T00:00:00Z .. +∞',
        '  alpha  1.10.0  aa0000000000  -∞ .. +∞',
        '  zeta   1.0.0   bb0000000000  -∞ .. +∞',
      ].join('\n'),
    );
  });

  it('diffs two vetting states', () => {
    const before = state(1, [pkg('aa', 'a', '1'), pkg('bb', 'b', '1')]);
    const after = state(2, [pkg('aa', 'a', '1', '2026-01-01T00:00:00Z'), pkg('cc', 'c', '1')]);
    expect(diffVettedPackages(before, after)).toEqual([
      '~ a 1 aa0000000000  -∞ .. +∞ → 2026-01-01T00:00:00Z .. +∞',
      '+ c 1 cc0000000000  -∞ .. +∞',
      '- b 1 bb0000000000  -∞ .. +∞',
    ]);
    expect(diffVettedPackages(before, before)).toEqual(['(no change)']);
    expect(diffVettedPackages(null, state(1, [pkg('aa', 'a', '1')]))).toEqual(['+ a 1 aa0000000000  -∞ .. +∞']);
  });

  it('formats rights', () => {
    expect(formatRight({ kind: { CanActAs: { value: { party: 'Alice::1' } } } })).toBe('CanActAs Alice::1');
    expect(formatRight({ kind: { ParticipantAdmin: { value: {} } } })).toBe('ParticipantAdmin');
    expect(formatRight({ kind: { unknownVariant: 'CanDance', payload: {} } })).toBe('CanDance');
  });
});
