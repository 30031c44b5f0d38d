import { describe, expect, it } from 'vitest';
import { ErrorCodes } from '../../src/errors/error-codes.js';
import { PublishWindow, type PublishPort, type WindowMessage } from '../../src/sinks/jetstream/publish-window.js';
import { VirtualClock } from '../support/virtual-clock.js';

const message = (offset: number, data = new Uint8Array()): WindowMessage => ({ offset, subject: 's', data, headers: [] });

/**
 * A stream that enforces the expected last sequence and dedupes by offset, like JetStream, and fails the
 * publishes the test marks (a timeout that loses the message, or one that stores it but loses the answer).
 * `portOf(rank)` is a publisher's view: it records who stored each message, and `rival` ranks by it.
 */
function fakeStream() {
  const stored: number[] = [];
  const writers: { rank: number; data: Uint8Array }[] = [];
  const faults = new Map<number, 'lost' | 'answer-lost'>();
  let foreign = false;
  const portOf = (rank: number): PublishPort => ({
    async publish(m, expected) {
      await new Promise((r) => setImmediate(r));
      if (foreign) {
        stored.push(-1);
        writers.push({ rank: -1, data: new Uint8Array() });
        foreign = false;
      }
      const fault = faults.get(m.offset);
      faults.delete(m.offset);
      if (fault === 'lost') throw Object.assign(new Error('timeout'), { name: 'TimeoutError' });
      const dup = stored.indexOf(m.offset);
      if (dup >= 0) return { seq: dup + 1, duplicate: true };
      if (expected !== undefined && expected > 0 && expected !== stored.length) throw Object.assign(new Error(`wrong last sequence: ${stored.length}`), { code: 10071 });
      stored.push(m.offset);
      writers.push({ rank, data: m.data });
      if (fault === 'answer-lost') throw Object.assign(new Error('timeout'), { name: 'TimeoutError' });
      return { seq: stored.length, duplicate: false };
    },
    async tip() {
      const i = stored.length;
      return i === 0 ? undefined : { seq: i, offset: stored[i - 1] as number };
    },
    retryable: (e) => e instanceof Error && e.name === 'TimeoutError',
    wrongLastSequence: (e) => (e as { code?: number }).code === 10071,
    async rival(seq, m) {
      const w = writers[seq - 1];
      const same = w !== undefined && Buffer.compare(w.data, m.data) === 0;
      return { yields: !(w !== undefined && same && w.rank > rank), who: `publisher ${w?.rank ?? 'unknown'}` };
    },
  });
  return { port: portOf(0), portOf, stored, faults, interleave: () => (foreign = true) };
}

describe('PublishWindow', () => {
  it('recovers from lost messages and lost answers in a full window: every offset stored once, in order', async () => {
    const s = fakeStream();
    s.faults.set(3, 'lost').set(7, 'answer-lost').set(12, 'lost');
    const statuses: string[] = [];
    const w = new PublishWindow(s.port, { size: 4, expectSequence: true, retryForMs: 5_000, initialDelayMs: 1, onStatus: (st) => statuses.push(st.type) });
    w.begin(undefined);
    for (let o = 1; o <= 20; o++) {
      w.add(message(o));
      await w.whenSent();
    }
    await w.acknowledged(20);
    expect(s.stored).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(statuses.filter((t) => t === 'resynced').length).toBeGreaterThanOrEqual(3);
  });

  it('keeps order over thousands of messages and recoveries (the acknowledged head is dropped in chunks)', async () => {
    const s = fakeStream();
    s.faults.set(1500, 'lost').set(3000, 'answer-lost').set(4200, 'lost');
    const w = new PublishWindow(s.port, { size: 64, expectSequence: true, retryForMs: 5_000, initialDelayMs: 1 });
    w.begin(undefined);
    for (let o = 1; o <= 5000; o++) {
      w.add(message(o));
      if (o % 100 === 0) await w.whenSent();
    }
    await w.acknowledged(5000);
    expect(s.stored).toEqual(Array.from({ length: 5000 }, (_, i) => i + 1));
  });

  it('fails with SINK_CONFLICT when another writer stored a message between two of its own', async () => {
    const s = fakeStream();
    const w = new PublishWindow(s.port, { size: 1, expectSequence: true, retryForMs: 5_000, initialDelayMs: 1 });
    w.begin(undefined);
    w.add(message(1));
    await w.acknowledged(1);
    s.interleave();
    w.add(message(2));
    await expect(w.acknowledged(2)).rejects.toMatchObject({ code: ErrorCodes.SINK_CONFLICT });
    expect(() => w.add(message(3))).toThrow(expect.objectContaining({ code: ErrorCodes.SINK_CONFLICT }));
    await expect(w.whenSent()).rejects.toMatchObject({ code: ErrorCodes.SINK_CONFLICT });
    expect(s.stored).toEqual([1, -1]);
  });

  it('fails with SINK_CONFLICT when its first send of an offset is answered as a duplicate', async () => {
    const s = fakeStream();
    s.stored.push(1, 2);
    const w = new PublishWindow(s.port, { size: 8, expectSequence: true, retryForMs: 5_000 });
    w.begin({ seq: 1, offset: 1 }); // read the tip before the other publisher stored offset 2
    w.add(message(2));
    await expect(w.acknowledged(2)).rejects.toMatchObject({ code: ErrorCodes.SINK_CONFLICT });
  });

  it('two publishers of one ledger racing: the one that started later fails with SINK_CONFLICT, the earlier one counts its copies as stored and carries on', async () => {
    const s = fakeStream();
    const statuses: string[] = [];
    const a = new PublishWindow(s.portOf(1), { size: 8, expectSequence: true, retryForMs: 5_000, onStatus: (st) => statuses.push(st.type) });
    a.begin(undefined);
    for (const o of [1, 2, 3]) a.add(message(o));
    await a.acknowledged(3);
    const b = new PublishWindow(s.portOf(2), { size: 8, expectSequence: true, retryForMs: 5_000 });
    b.begin(await s.port.tip());
    // b is faster for 4..6: a's first sends of them are answered as duplicates of b's copies
    for (const o of [4, 5, 6]) b.add(message(o));
    for (const o of [4, 5, 6]) a.add(message(o));
    await Promise.all([a.acknowledged(6), b.acknowledged(6)]);
    expect(statuses.filter((t) => t === 'rival')).toHaveLength(3);
    // a is faster for 7: b meets a copy of the earlier publisher and is refused
    a.add(message(7));
    b.add(message(7));
    await expect(b.acknowledged(7)).rejects.toMatchObject({ code: ErrorCodes.SINK_CONFLICT, message: expect.stringContaining('stored by publisher 1') });
    await a.acknowledged(7);
    a.add(message(8));
    await a.acknowledged(8);
    expect(a.failure).toBeUndefined();
    expect(s.stored).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);

    // a later publisher's copy with other bytes is a conflict for the earlier one too
    const c = new PublishWindow(s.portOf(3), { size: 8, expectSequence: true, retryForMs: 5_000 });
    c.begin(await s.port.tip());
    c.add(message(9, new Uint8Array([1])));
    a.add(message(9, new Uint8Array([2])));
    await expect(a.acknowledged(9)).rejects.toMatchObject({ code: ErrorCodes.SINK_CONFLICT });
  });

  it('start reads the tip again while the failure may pass (a node without the leader), and fails with SINK_FAILED when it cannot', async () => {
    const s = fakeStream();
    s.stored.push(1, 2);
    const answers: (Error | undefined)[] = [Object.assign(new Error('no leader'), { name: 'TimeoutError' }), Object.assign(new Error('no leader'), { name: 'TimeoutError' })];
    const flaky: PublishPort = { ...s.port, tip: () => { const e = answers.shift(); return e ? Promise.reject(e) : s.port.tip(); } };
    const w = new PublishWindow(flaky, { size: 4, expectSequence: true, retryForMs: 5_000, initialDelayMs: 1 });
    await expect(w.start()).resolves.toEqual({ seq: 2, offset: 2 });
    expect(answers).toEqual([]);
    w.add(message(3));
    await w.acknowledged(3);
    expect(s.stored).toEqual([1, 2, 3]);

    const broken: PublishPort = { ...s.port, tip: () => Promise.reject(new Error('not authorized')) };
    await expect(new PublishWindow(broken, { size: 4, expectSequence: true, retryForMs: 5_000, initialDelayMs: 1 }).start()).rejects.toMatchObject({ code: ErrorCodes.SINK_FAILED });
  });

  it('gives up with SINK_FAILED after retryForMs without progress, measured on its scheduler (virtual time)', async () => {
    const clock = new VirtualClock();
    const s = fakeStream();
    const away = () => Object.assign(new Error('timeout'), { name: 'TimeoutError' });
    const gone: PublishPort = { ...s.port, publish: () => Promise.reject(away()), tip: () => Promise.reject(away()) };
    const statuses: string[] = [];
    const w = new PublishWindow(gone, { size: 4, expectSequence: true, retryForMs: 30_000, scheduler: clock.scheduler, onStatus: (st) => statuses.push(st.type) });
    w.begin(undefined);
    w.add(message(1));
    let failure: unknown;
    w.acknowledged(1).catch((error: unknown) => (failure = error));
    await clock.advance(29_000);
    expect(failure).toBeUndefined();
    expect(statuses).toEqual(['recovering']);
    await clock.advance(3_000);
    expect(failure).toMatchObject({ code: ErrorCodes.SINK_FAILED, message: expect.stringContaining('unreachable for 30000 ms') });
  });
});
