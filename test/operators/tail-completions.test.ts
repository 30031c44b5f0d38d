import { describe, expect, it } from 'vitest';
import { InvalidArgumentError, TransportError } from '../../src/errors/index.js';
import { tailCompletions, type TailStatus } from '../../src/operators/index.js';
import { completionAt, completionCp, fakeCommandSource } from '../support/fake-command-source.js';
import { createTestScheduler } from '../support/test-scheduler.js';

const reset = new TransportError('CONNECTION_RESET', 'connection reset');
const fast = { initialDelayMs: 10, maxDelayMs: 100, factor: 2, jitter: 0 };

describe('tailCompletions', () => {
  it('websocket: from the ledger end; a broken stream resumes after the last element delivered, a checkpoint at that offset skipped', () => {
    createTestScheduler().run(({ cold, expectObservable, flush }) => {
      const a = completionAt(11, 'c1', 's1');
      const b = completionCp(12);
      const c = completionAt(14, 'c2', 's2');
      const source = fakeCommandSource([() => cold('a-b#', { a, b }, reset), () => cold('-bc', { b, c })]);
      const statuses: TailStatus[] = [];
      expectObservable(tailCompletions(source, { parties: ['Alice::1220aa'], retry: fast, onStatus: (s) => statuses.push(s) }), '^ 30ms !').toBe(
        'a-b 11ms -c',
        { a, b, c },
      );
      flush();
      const begins = source.log.map((e) => (e.kind === 'completions' ? e.request.beginExclusive : undefined));
      expect(begins).toEqual([10, 12]);
      expect(source.log.every((e) => e.kind === 'completions' && e.options?.transport === 'websocket' && e.options.endpoint === 'command-completions')).toBe(true);
      expect(statuses.map((s) => s.type)).toEqual(['ledger-end', 'transport-selected', 'resumed', 'retrying', 'resumed']);
      expect(statuses[1]).toEqual({ type: 'transport-selected', transport: 'websocket', requested: 'auto' });
    });
  });

  it("'auto' (the default) falls back to the list at once when the WebSocket handshake gets no answer; the client's next tail skips it within the cool-off", () => {
    const scheduler = createTestScheduler();
    scheduler.run(({ cold, flush }) => {
      const handshake = new TransportError('HANDSHAKE_TIMEOUT', 'GET /v2/commands/completions (WebSocket): WebSocket handshake got no answer within 3000 ms', { request: 'GET /v2/commands/completions (WebSocket)' });
      const a = completionAt(11, 'c1', 's1');
      const b = completionAt(12, 'c2', 's2');
      const source = fakeCommandSource([() => cold('---#', {}, handshake), () => cold('-a|', { a }), () => cold('-'), () => cold('-b|', { b }), () => cold('-')]);
      const first: TailStatus[] = [];
      const second: TailStatus[] = [];
      const seen: [number, number][] = [];
      const offsetOf = (e: unknown) => (e as { completionResponse: { Completion: { value: { offset: number } } } }).completionResponse.Completion.value.offset;
      const one = tailCompletions(source, { parties: ['Alice::1220aa'], retry: fast, webSocketCoolOffMs: 1_000, onStatus: (s) => first.push(s) }).subscribe((e) => seen.push([scheduler.now(), offsetOf(e)]));
      scheduler.schedule(() => one.unsubscribe(), 50);
      let two: { unsubscribe(): void } | undefined;
      scheduler.schedule(() => void (two = tailCompletions(source, { parties: ['Alice::1220aa'], retry: fast, webSocketCoolOffMs: 1_000, onStatus: (s) => second.push(s) }).subscribe((e) => seen.push([scheduler.now(), offsetOf(e)]))), 60);
      scheduler.schedule(() => two?.unsubscribe(), 100);
      flush();
      expect(seen).toEqual([[4, 11], [61, 12]]);
      expect(source.log.map((e) => (e.kind === 'completions' ? e.options?.transport : undefined))).toEqual(['websocket', 'list', 'list', 'list', 'list']);
      expect(first.filter((s) => s.type === 'transport-selected')).toEqual([
        { type: 'transport-selected', transport: 'websocket', requested: 'auto' },
        { type: 'transport-selected', transport: 'list', requested: 'auto', reason: 'WebSocket handshake got no answer within 3000 ms', refused: { transport: 'websocket', error: handshake } },
      ]);
      expect(first.some((s) => s.type === 'retrying')).toBe(false);
      expect(second.filter((s) => s.type === 'transport-selected')).toEqual([
        { type: 'transport-selected', transport: 'list', requested: 'auto', reason: 'websocket skipped: WebSocket handshake got no answer within 3000 ms 57 ms ago (tried again 1000 ms after that)' },
      ]);
    });
  });

  it('list: catch-up pages of pageLimit while they come back full, then long polls of one element', () => {
    createTestScheduler().run(({ cold, expectObservable, flush }) => {
      const a = completionAt(11, 'c1', 's1');
      const b = completionAt(12, 'c2', 's2');
      const c = completionAt(15, 'c3', 's3');
      const source = fakeCommandSource([() => cold('ab|', { a, b }), () => cold('-|'), () => cold('---c|', { c }), () => cold('-|'), () => cold('-')]);
      expectObservable(tailCompletions(source, { transport: 'list', beginExclusive: 'begin', pageLimit: 2, parties: ['Alice::1220aa'] }), '^ 9ms !').toBe('ab ----c', { a, b, c });
      flush();
      const asked = source.log.map((e) => (e.kind === 'completions' ? [e.request.beginExclusive, e.options?.limit] : []));
      expect(asked).toEqual([[0, 2], [12, 2], [12, 1], [15, 2], [15, 1]]);
    });
  });

  it('list: a catch-up page that fills more slowly than targetLatencyMs shrinks, one that fills fast grows back', () => {
    createTestScheduler().run(({ cold, flush }) => {
      const at = (offset: number) => completionAt(offset, `c${offset}`, `s${offset}`);
      const letters = 'abcdefgh';
      // 8 completions 10 ms apart: the full page took 71 ms, above the 50 ms target
      const slow = cold(`${[...letters].join(' 9ms ')}|`, Object.fromEntries([...letters].map((l, i) => [l, at(i + 1)])));
      // the smaller page fills at once: twice as large next time (up to pageLimit)
      const fast = cold('(abcde|)', Object.fromEntries([...'abcde'].map((l, i) => [l, at(i + 9)])));
      const source = fakeCommandSource([() => slow, () => fast, () => cold('-|'), () => cold('-')]);
      const delivered: number[] = [];
      const subscription = tailCompletions(source, { transport: 'list', beginExclusive: 'begin', pageLimit: 8, parties: ['Alice::1220aa'] }).subscribe((e) =>
        delivered.push((e.completionResponse as { Completion: { value: { offset: number } } }).Completion.value.offset),
      );
      flush();
      subscription.unsubscribe();
      expect(delivered).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
      const asked = source.log.map((e) => (e.kind === 'completions' ? [e.request.beginExclusive, e.options?.limit] : []));
      // floor(8 × 50 / 71) = 5, then 5 × 2 = 10 capped at 8, then the long poll
      expect(asked).toEqual([[0, 8], [8, 5], [13, 8], [13, 1]]);
    });
  });

  it('rejects bad options at the call', () => {
    const source = fakeCommandSource([]);
    expect(() => tailCompletions(source, { endpoint: 'completions' })).toThrow(InvalidArgumentError);
    expect(() => tailCompletions(source, { beginExclusive: -1 })).toThrow(InvalidArgumentError);
    expect(() => tailCompletions(source, { transport: 'page' as 'list' })).toThrow(InvalidArgumentError);
    expect(() => tailCompletions(source, { pageLimit: 0 })).toThrow(InvalidArgumentError);
    expect(() => tailCompletions(source, { targetLatencyMs: 0 })).toThrow(InvalidArgumentError);
  });
});
