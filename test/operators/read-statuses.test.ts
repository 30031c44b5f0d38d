import { defer, of, tap, type Observable } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { TransportError } from '../../src/errors/index.js';
import { readDescending, tailUpdates, type TailStatus, type TailUpdatesConfig } from '../../src/operators/index.js';
import type { JsGetUpdatesResponse } from '../../src/schemas/index.js';
import { cp, fakeSource, fakeTransportSource, tx, type RecordedCall } from '../support/fake-updates-source.js';
import { createTestScheduler } from '../support/test-scheduler.js';

const format = { updateFormat: { includeTransactions: { eventFormat: { filtersByParty: { 'Alice::1220aa': {} } }, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' as const } } };
const reset = new TransportError('CONNECTION_RESET', 'connection reset');
const config = (extra: Partial<TailUpdatesConfig> = {}): TailUpdatesConfig => ({ ...format, pageLimit: 3, retry: { initialDelayMs: 10, maxDelayMs: 100, jitter: 0 }, ...extra });
const counts = (c: Partial<Record<'transaction' | 'reassignment' | 'topology' | 'checkpoint' | 'unknown', number>>) => ({
  transaction: 0,
  reassignment: 0,
  topology: 0,
  checkpoint: 0,
  unknown: 0,
  ...c,
});
const reassignment = (offset: number): JsGetUpdatesResponse =>
  ({ update: { Reassignment: { value: { offset, recordTime: '2026-01-02T00:00:00Z', events: [] } } } }) as unknown as JsGetUpdatesResponse;
const topology = (offset: number): JsGetUpdatesResponse =>
  ({ update: { TopologyTransaction: { value: { offset, recordTime: '2026-01-03T00:00:00Z', events: [] } } } }) as unknown as JsGetUpdatesResponse;

/** A page that reports `bytes` body bytes through the call's `onBytes` when subscribed, then plays `page`. */
function withBytes(call: RecordedCall, bytes: number, page: Observable<JsGetUpdatesResponse>): Observable<JsGetUpdatesResponse> {
  return defer(() => {
    call.options?.onBytes?.(bytes);
    return page;
  });
}

describe('the metrics statuses of a paged read', () => {
  it('reports progress (by kind, bytes, position, record time) and the request when a page ends', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const statuses: TailStatus[] = [];
      const times = [{ synchronizerId: 's1', recordTime: '2026-01-04T00:00:00Z' }, { synchronizerId: 's2', recordTime: '2026-01-05T00:00:00Z' }];
      const source = fakeSource([
        (call) => withBytes(call, 700, cold('-a-b-c|', { a: tx(1), b: reassignment(2), c: topology(3) })),
        (call) => withBytes(call, 90, cold('--d|', { d: cp(4, times) })),
        () => cold<JsGetUpdatesResponse>('-'),
      ]);
      expectObservable(tailUpdates(source, config({ onStatus: (s) => statuses.push(s) })), '^ 20ms !').toBe('-a-b-c--d', {
        a: tx(1),
        b: reassignment(2),
        c: topology(3),
        d: cp(4, times),
      });
      cold('21ms |').subscribe({
        complete: () => {
          expect(statuses).toEqual([
            { type: 'transport-selected', transport: 'list', requested: 'auto' },
            { type: 'resumed', fromOffset: 0, attempt: 0, transport: 'list' },
            { type: 'progress', transport: 'list', delivered: counts({ transaction: 1, reassignment: 1, topology: 1 }), bytes: 700, offset: 3, recordTime: '2026-01-03T00:00:00Z' },
            { type: 'request', transport: 'list', outcome: 'ok', elements: 3, limit: 3, durationMs: 6 },
            { type: 'progress', transport: 'list', delivered: counts({ checkpoint: 1 }), bytes: 90, offset: 4, recordTime: '2026-01-05T00:00:00Z' },
            { type: 'request', transport: 'list', outcome: 'ok', elements: 1, limit: 3, durationMs: 3 },
            { type: 'caught-up', offset: 4 },
            // the long poll in flight is torn down by the end of the test
            { type: 'request', transport: 'list', outcome: 'cancelled', elements: 0, limit: 1, durationMs: 12 },
          ]);
        },
      });
    });
  });

  it('reports a failed request before the retry, and the reconnect with the transport', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const statuses: TailStatus[] = [];
      const source = fakeSource([() => cold('-a-#', { a: tx(1) }, reset), () => cold('-b|', { b: tx(2) }), () => cold<JsGetUpdatesResponse>('-')]);
      expectObservable(tailUpdates(source, config({ onStatus: (s) => statuses.push(s) })), '^ 20ms !').toBe('-a 12ms b', { a: tx(1), b: tx(2) });
      cold('21ms |').subscribe({
        complete: () => {
          expect(statuses.slice(0, 7)).toEqual([
            { type: 'transport-selected', transport: 'list', requested: 'auto' },
            { type: 'resumed', fromOffset: 0, attempt: 0, transport: 'list' },
            { type: 'progress', transport: 'list', delivered: counts({ transaction: 1 }), bytes: 0, offset: 1, recordTime: '2026-01-01T00:00:00Z' },
            { type: 'request', transport: 'list', outcome: 'error', elements: 1, limit: 3, durationMs: 3, error: reset },
            { type: 'retrying', attempt: 1, delayMs: 10, error: reset },
            { type: 'resumed', fromOffset: 1, attempt: 1, transport: 'list' },
            { type: 'progress', transport: 'list', delivered: counts({ transaction: 1 }), bytes: 0, offset: 2, recordTime: '2026-01-01T00:00:00Z' },
          ]);
        },
      });
    });
  });

  it('reports progress at most every second during a long request, and the rest when it ends', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const statuses: TailStatus[] = [];
      const source = fakeSource([() => cold('a 599ms b 599ms c 599ms d|', { a: tx(1), b: tx(2), c: tx(3), d: tx(4) }), () => cold<JsGetUpdatesResponse>('-')]);
      expectObservable(tailUpdates(source, config({ pageLimit: 10, onStatus: (s) => statuses.push(s) })), '^ 2000ms !').toBe('a 599ms b 599ms c 599ms d', {
        a: tx(1),
        b: tx(2),
        c: tx(3),
        d: tx(4),
      });
      cold('2001ms |').subscribe({
        complete: () => {
          const progress = statuses.filter((s) => s.type === 'progress');
          // the report falls due a second after the start (a and b delivered by then); d ends the request
          expect(progress.map((s) => [s.offset, s.delivered.transaction])).toEqual([
            [2, 2],
            [4, 2],
          ]);
        },
      });
    });
  });

  it('reports the ledger end it looks up, and a bounded read that stops past its end as ok', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const statuses: TailStatus[] = [];
      const source = fakeSource([() => cold('-a-b|', { a: tx(6), b: tx(9) })], () => cold('-(e|)', { e: { offset: 5 } }));
      expectObservable(tailUpdates(source, config({ beginExclusive: 'ledger-end', endInclusive: 7, onStatus: (s) => statuses.push(s) }))).toBe('---a-|', { a: tx(6) });
      cold('10ms |').subscribe({
        complete: () => {
          expect(statuses.filter((s) => s.type === 'ledger-end')).toEqual([
            { type: 'ledger-end', offset: 5 },
            { type: 'ledger-end', offset: 5 },
          ]);
          expect(statuses.filter((s) => s.type === 'request')).toEqual([{ type: 'request', transport: 'list', outcome: 'ok', elements: 2, limit: 3, durationMs: 3 }]);
        },
      });
    });
  });

  it('reports the descending read too, with the ledger end it starts from', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const statuses: TailStatus[] = [];
      const source = fakeSource([() => cold('-b-a|', { b: tx(2), a: tx(1) })], () => of({ offset: 2 }));
      expectObservable(readDescending(source, { ...format, beginExclusive: 0, onStatus: (s) => statuses.push(s) })).toBe('-b-a|', { a: tx(1), b: tx(2) });
      cold('5ms |').subscribe({
        complete: () => {
          expect(statuses.map((s) => s.type)).toEqual(['ledger-end', 'transport-selected', 'resumed', 'progress', 'request']);
          expect(statuses[3]).toMatchObject({ type: 'progress', delivered: counts({ transaction: 2 }), offset: expect.any(Number) });
        },
      });
    });
  });

  it('reports what a stream at rest delivered within a second, though no element follows (a WebSocket between checkpoints)', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const statuses: TailStatus[] = [];
      const source = fakeTransportSource([() => cold('-a-b 1500ms c', { a: tx(1), b: tx(2), c: tx(3) })]);
      expectObservable(tailUpdates(source, config({ transport: 'websocket', onStatus: (s) => statuses.push(s) })), '^ 3000ms !').toBe('-a-b 1500ms c', { a: tx(1), b: tx(2), c: tx(3) });
      cold('3001ms |').subscribe({
        complete: () => {
          const progress = statuses.filter((s) => s.type === 'progress');
          expect(progress).toEqual([
            { type: 'progress', transport: 'websocket', delivered: counts({ transaction: 2 }), bytes: 0, offset: 2, recordTime: '2026-01-01T00:00:00Z' },
            { type: 'progress', transport: 'websocket', delivered: counts({ transaction: 1 }), bytes: 0, offset: 3, recordTime: '2026-01-01T00:00:00Z' },
          ]);
        },
      });
    });
  });

  it('costs nothing without onStatus: no byte callback is handed to the source', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const source = fakeSource([() => cold('-a|', { a: tx(1) }), () => cold<JsGetUpdatesResponse>('-')]);
      expectObservable(tailUpdates(source, config()).pipe(tap(() => undefined)), '^ 5ms !').toBe('-a', { a: tx(1) });
      cold('6ms |').subscribe({ complete: () => expect(source.calls.every((c) => c.options?.onBytes === undefined)).toBe(true) });
    });
  });
});
