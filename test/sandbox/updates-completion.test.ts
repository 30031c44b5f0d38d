import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { ACS, checkAgainstLog, createIou, elementsOf, LE, postUpdates, sleep, updateFormat, type Visibility } from './ledger-support.js';

const anyAcs: Visibility = { transactions: { shape: ACS, parties: 'any' } };
const anyLe: Visibility = { transactions: { shape: LE, parties: 'any' } };

describe('cap, 413 and limit (docs/server-behavior.md#updates-list-completion)', () => {
  let sandbox: Sandbox;
  let end: number;
  beforeAll(async () => {
    sandbox = await startSandbox({ seed: 20, maxListElements: 5, listWaitMs: 50 });
    end = sandbox.ledgerEnd();
  });
  afterAll(() => sandbox.close());

  const bounded = () => ({ beginExclusive: 0, endInclusive: end, updateFormat: updateFormat('any', LE) });

  it('answers 413 (JSON-layer body) when more than N elements are collected without a limit', async () => {
    const r = await postUpdates(sandbox, bounded(), '', { headers: { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' } });
    expect(r.status).toBe(413);
    expect(r.json).toEqual({
      code: 'JSON_API_MAXIMUM_LIST_ELEMENTS_NUMBER_REACHED',
      cause: 'The number of matching elements (6) is greater than the node limit (5).',
      correlationId: '4bf92f3577b34da6a3ce929d0e0e4736',
      traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
      context: {},
      resources: [],
      errorCategory: 2,
      grpcCodeValue: 10,
      retryInfo: '1 second',
      definiteAnswer: false,
    });
  });

  it.each([
    { limit: 5, count: 5 },
    { limit: 3, count: 3 },
    { limit: 1, count: 1 },
  ])('limit=$limit ≤ N truncates to $count elements, never 413', async ({ limit, count }) => {
    const r = await postUpdates(sandbox, bounded(), `?limit=${limit}`);
    expect(r.status).toBe(200);
    const elements = checkAgainstLog(sandbox, r.json, anyLe, { beginExclusive: 0, endInclusive: end, truncated: true });
    expect(elements).toHaveLength(count);
  });

  it('limit above N is clamped to N+1: 413', async () => {
    const r = await postUpdates(sandbox, bounded(), '?limit=100');
    expect(r.status).toBe(413);
  });

  it.each(['0', '-1', '-9999'])('limit=%s answers [] at once', async (limit) => {
    const started = Date.now();
    const r = await postUpdates(sandbox, { beginExclusive: 0, updateFormat: updateFormat('any') }, `?limit=${limit}&stream_idle_timeout_ms=5000`);
    expect(r.status).toBe(200);
    expect(r.json).toEqual([]);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('exactly N elements is 200 with all of them', async () => {
    const fifth = sandbox.updates()[4] as { offset: number };
    const r = await postUpdates(sandbox, { beginExclusive: 0, endInclusive: fifth.offset, updateFormat: updateFormat('any', LE) });
    expect(r.status).toBe(200);
    expect(checkAgainstLog(sandbox, r.json, anyLe, { beginExclusive: 0, endInclusive: fifth.offset })).toHaveLength(5);
  });

  it('descending: the newest first, within (begin, end], limit keeps the newest', async () => {
    const r = await postUpdates(sandbox, { ...bounded(), descendingOrder: true }, '?limit=3');
    expect(r.status).toBe(200);
    const elements = checkAgainstLog(sandbox, r.json, anyLe, { beginExclusive: 0, endInclusive: end, descending: true, truncated: true });
    expect(elements.map((e) => e.offset)).toEqual(sandbox.updates().slice(-3).map((u) => u.offset).reverse());
    const fourth = (sandbox.updates()[3] as { offset: number }).offset;
    const all = await postUpdates(sandbox, { beginExclusive: 0, endInclusive: fourth, descendingOrder: true, updateFormat: updateFormat('any', LE) });
    checkAgainstLog(sandbox, all.json, anyLe, { beginExclusive: 0, endInclusive: fourth, descending: true });
    expect(elementsOf(all.json).every((e) => e.kind !== 'OffsetCheckpoint')).toBe(true);
  });
});

describe('idle timer (docs/server-behavior.md#updates-idle-timeout)', () => {
  let sandbox: Sandbox;
  let alice: string;
  beforeAll(async () => {
    sandbox = await startSandbox({ seed: 4, listWaitMs: 3000, checkpointIntervalMs: 3_600_000 });
    alice = sandbox.partyId('Alice');
  });
  afterAll(() => sandbox.close());

  it('a bounded read without stream_idle_timeout_ms has no idle timer: it returns when the range is exhausted', async () => {
    const started = Date.now();
    const end = sandbox.ledgerEnd();
    const r = await postUpdates(sandbox, { beginExclusive: 0, endInclusive: end, updateFormat: updateFormat('any') });
    expect(Date.now() - started).toBeLessThan(1500);
    checkAgainstLog(sandbox, r.json, anyAcs, { beginExclusive: 0, endInclusive: end });
  });

  it('an open-ended read uses stream_idle_timeout_ms over the list wait', async () => {
    const started = Date.now();
    const r = await postUpdates(sandbox, { beginExclusive: 0, updateFormat: updateFormat('any') }, '?stream_idle_timeout_ms=150');
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(140);
    expect(took).toBeLessThan(1500);
    checkAgainstLog(sandbox, r.json, anyAcs, { beginExclusive: 0 });
  });

  it('an open-ended read without the parameter waits the list wait (listWaitMs)', async () => {
    const s = await startSandbox({ listWaitMs: 200 });
    try {
      const started = Date.now();
      const r = await postUpdates(s, { beginExclusive: 0, updateFormat: updateFormat('any') });
      const took = Date.now() - started;
      expect(r.json).toEqual([]);
      expect(took).toBeGreaterThanOrEqual(190);
      expect(took).toBeLessThan(1500);
    } finally {
      await s.close();
    }
  });

  it('an open-ended read serves updates appended while it is open, each one resetting the timer', async () => {
    const begin = sandbox.ledgerEnd();
    const started = Date.now();
    const pending = postUpdates(sandbox, { beginExclusive: begin, updateFormat: updateFormat([alice]) }, '?stream_idle_timeout_ms=400');
    const submitted: number[] = [];
    for (let i = 0; i < 3; i++) {
      await sleep(200);
      submitted.push((await sandbox.submit({ commands: [createIou(alice, alice)], commandId: `tail-${i}`, actAs: [alice] })).offset);
    }
    const r = await pending;
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(990);
    const elements = checkAgainstLog(sandbox, r.json, { transactions: { shape: ACS, parties: [alice] } }, { beginExclusive: begin });
    expect(elements.filter((e) => e.kind === 'Transaction').map((e) => e.offset)).toEqual(submitted);
  });

  it('stream_idle_timeout_ms also applies to a bounded read that sets it (which still returns the whole range)', async () => {
    const end = sandbox.ledgerEnd();
    const r = await postUpdates(sandbox, { beginExclusive: 0, endInclusive: end, updateFormat: updateFormat('any') }, '?stream_idle_timeout_ms=0');
    expect(r.status).toBe(200);
    checkAgainstLog(sandbox, r.json, anyAcs, { beginExclusive: 0, endInclusive: end });
  });

  it('the request timeout answers 503 text/plain', async () => {
    const s = await startSandbox({ requestTimeoutMs: 300 });
    try {
      const r = await postUpdates(s, { beginExclusive: 0, updateFormat: updateFormat('any') }, '?stream_idle_timeout_ms=5000');
      expect(r.status).toBe(503);
      expect(r.contentType).toMatch(/^text\/plain/);
    } finally {
      await s.close();
    }
  });
});

describe('offset checkpoints (docs/server-behavior.md#offset-checkpoints)', () => {
  let sandbox: Sandbox;
  let alice: string;
  let checkpoint: number;
  let seeded: number[];
  let added: number[];
  beforeAll(async () => {
    // A refresh interval of an hour: the cache only moves when the test refreshes it.
    sandbox = await startSandbox({ seed: 5, listWaitMs: 100, checkpointIntervalMs: 3_600_000 });
    alice = sandbox.partyId('Alice');
    seeded = sandbox.updates().map((u) => u.offset);
    checkpoint = sandbox.ledgerEnd();
    added = [];
    for (let i = 0; i < 2; i++) added.push((await sandbox.submit({ commands: [createIou(alice, alice)], commandId: `cp-${i}`, actAs: [alice] })).offset);
  });
  afterAll(() => sandbox.close());

  it('the seeded ledger has a checkpoint at an offset past its last update (an invisible event)', () => {
    expect(checkpoint).toBeGreaterThan(seeded[seeded.length - 1] as number);
    expect(checkpoint).toBeLessThan(added[0] as number);
  });

  it('an open-ended read carries the cached checkpoint right before the first update beyond it', async () => {
    const r = await postUpdates(sandbox, { beginExclusive: 0, updateFormat: updateFormat('any') });
    const elements = checkAgainstLog(sandbox, r.json, anyAcs, { beginExclusive: 0 });
    expect(elements.map((e) => (e.kind === 'OffsetCheckpoint' ? `cp${e.offset}` : e.offset))).toEqual([...seeded, `cp${checkpoint}`, ...added]);
    const cp = elements[seeded.length]?.value as { synchronizerTimes: { synchronizerId: string; recordTime: string }[] };
    expect(cp.synchronizerTimes).toEqual([{ synchronizerId: sandbox.state.synchronizers[0]?.id, recordTime: expect.stringMatching(/Z$/) }]);
  });

  it('a checkpoint counts towards the limit', async () => {
    const r = await postUpdates(sandbox, { beginExclusive: 0, updateFormat: updateFormat('any') }, `?limit=${seeded.length + 1}`);
    const elements = checkAgainstLog(sandbox, r.json, anyAcs, { beginExclusive: 0, truncated: true });
    expect(elements).toHaveLength(seeded.length + 1);
    expect(elements[seeded.length]?.kind).toBe('OffsetCheckpoint');
  });

  it('bounded and descending reads never carry checkpoints', async () => {
    const end = sandbox.ledgerEnd();
    for (const descendingOrder of [false, true]) {
      const r = await postUpdates(sandbox, { beginExclusive: 0, endInclusive: end, descendingOrder, updateFormat: updateFormat('any') });
      const elements = checkAgainstLog(sandbox, r.json, anyAcs, { beginExclusive: 0, endInclusive: end, descending: descendingOrder });
      expect(elements.some((e) => e.kind === 'OffsetCheckpoint')).toBe(false);
    }
  });

  it('the initial idle probe emits the checkpoint when the read is at rest at its offset', async () => {
    sandbox.state.ledger.refreshCheckpoint();
    const at = sandbox.ledgerEnd();
    expect(at).toBeGreaterThan(added[1] as number);
    const started = Date.now();
    const r = await postUpdates(sandbox, { beginExclusive: added[0], updateFormat: updateFormat('any') }, '?stream_idle_timeout_ms=700');
    expect(Date.now() - started).toBeGreaterThanOrEqual(1100);
    const elements = checkAgainstLog(sandbox, r.json, anyAcs, { beginExclusive: added[0] as number });
    expect(elements.map((e) => (e.kind === 'OffsetCheckpoint' ? `cp${e.offset}` : e.offset))).toEqual([added[1], `cp${at}`]);
    // Resuming from the checkpoint: nothing new, the probe repeats it; a short idle timeout wins the race.
    const again = await postUpdates(sandbox, { beginExclusive: at, updateFormat: updateFormat('any') }, '?stream_idle_timeout_ms=700');
    expect(checkAgainstLog(sandbox, again.json, anyAcs, { beginExclusive: at }).map((e) => [e.kind, e.offset])).toEqual([['OffsetCheckpoint', at]]);
    const short = await postUpdates(sandbox, { beginExclusive: at, updateFormat: updateFormat('any') }, '?stream_idle_timeout_ms=200');
    expect(short.json).toEqual([]);
  });
});
