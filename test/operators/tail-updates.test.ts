import { asyncScheduler, concat, defer, from, mergeMap, of, take, timer, type Observable } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { LedgerApiError, ProtocolError, PrunedOffsetError, RetriesExhaustedError, TransportError } from '../../src/errors/index.js';
import { tailUpdates, type TailStatus, type TailUpdatesConfig } from '../../src/operators/index.js';
import type { JsGetUpdatesResponse } from '../../src/schemas/index.js';
import { updateOffset } from '../../src/updates/update-offset.js';
import { cp, fakeSource, tx, type RecordedCall } from '../support/fake-updates-source.js';
import { createTestScheduler } from '../support/test-scheduler.js';

const format = { updateFormat: { includeTransactions: { eventFormat: { filtersByParty: { 'Alice::1220aa': {} } }, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' as const } } };
const reset = new TransportError('CONNECTION_RESET', 'connection reset');
const noRetryJitter = { initialDelayMs: 10, maxDelayMs: 1_000, factor: 2, jitter: 0 };

function cantonError(status: number, code: string, category: number, extra: Partial<{ context: Record<string, string>; retryInfo: string | null }> = {}) {
  return new LedgerApiError({
    status,
    body: {
      code,
      cause: code.toLowerCase(),
      correlationId: null,
      traceId: 't',
      context: extra.context ?? {},
      resources: [],
      errorCategory: category,
      grpcCodeValue: 3,
      retryInfo: extra.retryInfo ?? null,
      definiteAnswer: null,
    },
  });
}

/** The statuses about the read's course (the metrics statuses `progress`, `request`, `ledger-end` left out). */
const course = (statuses: TailStatus[]) => statuses.filter((s) => s.type !== 'progress' && s.type !== 'request' && s.type !== 'ledger-end');

/** Every delivered offset must be strictly greater than the one before. */
function expectIncreasing(elements: JsGetUpdatesResponse[]): void {
  const offsets = elements.map((e) => updateOffset(e) as number);
  for (let i = 1; i < offsets.length; i++) expect(offsets[i]).toBeGreaterThan(offsets[i - 1] as number);
}

/**
 * A simulated participant over virtual time, answering like docs/server-behavior.md#updates-list-completion: the idle timer runs from the start of the
 * stream, then from each element; a page ends at its limit or when the idle timer fires. Its first element
 * takes `firstElementMs` (then 1 ms per element); `ledger` holds each offset with the time it is committed.
 */
function simulatedParticipant(ledger: readonly { offset: number; at: number }[], firstElementMs: number) {
  return (call: RecordedCall): Observable<JsGetUpdatesResponse> =>
    defer(() => {
      const t0 = asyncScheduler.now();
      const begin = call.request.beginExclusive as number;
      const idle = call.options?.streamIdleTimeoutMs ?? 500;
      const limit = call.options?.limit ?? 200;
      const out: number[] = [];
      let previous = t0;
      let end: number | undefined;
      for (const entry of ledger) {
        if (entry.offset <= begin) continue;
        const ready = Math.max(entry.at, out.length === 0 ? t0 + firstElementMs : previous + 1);
        if (ready - previous > idle) break;
        out.push(entry.offset);
        previous = ready;
        if (out.length === limit) {
          end = ready;
          break;
        }
      }
      return timer((end ?? previous + idle) - t0).pipe(mergeMap(() => from(out.map((o) => tx(o)))));
    });
}

/** The simulated participant's ledger end: the newest offset committed by now (scheduler time). */
function simulatedLedgerEnd(ledger: readonly { offset: number; at: number }[]) {
  return () => defer(() => of({ offset: Math.max(0, ...ledger.filter((e) => e.at <= asyncScheduler.now()).map((e) => e.offset)) }));
}

function config(extra: Partial<TailUpdatesConfig> = {}): TailUpdatesConfig {
  return { ...format, pageLimit: 3, retry: noRetryJitter, ...extra };
}

describe('tailUpdates', () => {
  it('catches up page by page, then long-polls with limit 1 once a page comes back short', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const statuses: TailStatus[] = [];
      const source = fakeSource([
        () => cold('-a-b-c|', { a: tx(1), b: tx(5), c: tx(9) }),
        () => cold('-d|', { d: tx(12) }),
        () => cold('--e|', { e: tx(20) }),
        () => cold<JsGetUpdatesResponse>('-|'),
        () => cold<JsGetUpdatesResponse>('-'),
      ]);
      const result = tailUpdates(source, config({ onStatus: (s) => statuses.push(s), idleTimeoutMs: 15, longPollMs: 4_000 }));
      expectObservable(result, '^ 30ms !').toBe('-a-b-c-d--e', { a: tx(1), b: tx(5), c: tx(9), d: tx(12), e: tx(20) });
      cold('31ms |').subscribe({
        complete: () => {
          expect(source.calls.map((c) => [c.request.beginExclusive, c.options?.limit, c.options?.streamIdleTimeoutMs])).toEqual([
            [0, 3, 15],
            [9, 3, 15],
            [12, 1, 4_000],
            [20, 3, 15],
            [20, 1, 4_000],
          ]);
          expect(course(statuses)).toEqual([
            { type: 'transport-selected', transport: 'list', requested: 'auto' },
            { type: 'resumed', fromOffset: 0, attempt: 0, transport: 'list' },
            { type: 'caught-up', offset: 12 },
          ]);
        },
      });
    });
  });

  it('long-polls again, without a catch-up page or a ledger-end read, when a long poll is answered with the checkpoint it rests at', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const statuses: TailStatus[] = [];
      // a participant answers a long poll that rests at its cached checkpoint with that checkpoint (skipped: not new)
      let ledgerEndReads = 0;
      const source = fakeSource([
        () => cold('-a|', { a: cp(10) }),
        () => cold<JsGetUpdatesResponse>('-|'),
        () => cold('500ms a|', { a: cp(10) }),
        () => cold('500ms a|', { a: cp(10) }),
        () => cold('500ms a|', { a: cp(10) }),
        () => cold('5ms a|', { a: tx(12) }),
        () => cold<JsGetUpdatesResponse>('-'),
      ], () => defer(() => (ledgerEndReads++, of({ offset: 12 }))));
      const result = tailUpdates(source, config({ beginExclusive: 10, onStatus: (s) => statuses.push(s), idleTimeoutMs: 15, longPollMs: 4_000 }));
      expectObservable(result, '^ 1520ms !').toBe('1511ms a', { a: tx(12) });
      cold('1521ms |').subscribe({
        complete: () => {
          expect(source.calls.map((c) => [c.request.beginExclusive, c.options?.limit, c.options?.streamIdleTimeoutMs])).toEqual([
            [10, 3, 15],
            [10, 1, 4_000],
            [10, 1, 4_000],
            [10, 1, 4_000],
            [10, 1, 4_000],
            [10, 1, 4_000],
            [12, 3, 15],
          ]);
          expect(ledgerEndReads).toBe(1); // only before the catch-up page that follows the long poll with an update
          expect(course(statuses)).toEqual([
            { type: 'transport-selected', transport: 'list', requested: 'auto' },
            { type: 'resumed', fromOffset: 10, attempt: 0, transport: 'list' },
            { type: 'caught-up', offset: 10 },
          ]);
        },
      });
    });
  });

  it('sends the update format and the current cursor in every request', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const source = fakeSource([() => cold('-a|', { a: tx(4) }), () => cold<JsGetUpdatesResponse>('-')]);
      expectObservable(tailUpdates(source, config({ beginExclusive: 3 })), '^ 5ms !').toBe('-a', { a: tx(4) });
      cold('6ms |').subscribe({
        complete: () => {
          expect(source.calls[0]?.request).toEqual({ ...format, beginExclusive: 3 });
          expect(source.calls[1]?.request).toEqual({ ...format, beginExclusive: 4 });
        },
      });
    });
  });

  it('passes the deprecated filter and verbose through for the client to convert', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const source = fakeSource([() => cold<JsGetUpdatesResponse>('-')]);
      const filter = { filtersByParty: { 'Alice::1220aa': {} } };
      expectObservable(tailUpdates(source, { filter, verbose: true, pageLimit: 3 }), '^ 2ms !').toBe('');
      cold('3ms |').subscribe({ complete: () => expect(source.calls[0]?.request).toEqual({ filter, verbose: true, beginExclusive: 0 }) });
    });
  });

  it('delivers an advancing checkpoint and skips a checkpoint at the offset already reached', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const source = fakeSource([() => cold('-a-b-c|', { a: cp(10), b: tx(11), c: cp(11) }), () => cold<JsGetUpdatesResponse>('-')]);
      expectObservable(tailUpdates(source, config({ beginExclusive: 10 })), '^ 10ms !').toBe('---b', { b: tx(11) });
    });
  });

  it('errors with a ProtocolError when an offset goes backwards, never delivering it', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const source = fakeSource([() => cold('-a-b-c|', { a: tx(5), b: tx(3), c: tx(9) })]);
      expectObservable(tailUpdates(source, config())).toBe(
        '-a-#',
        { a: tx(5) },
        new ProtocolError('OFFSET_NOT_INCREASING', 'element 1 has offset 3, after 5 in an ascending answer'),
      );
    });
  });

  it('errors when an update repeats the offset the request started after', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const source = fakeSource([() => cold('-a|', { a: tx(7) })]);
      expectObservable(tailUpdates(source, config({ beginExclusive: 7 }))).toBe(
        '-#',
        undefined,
        new ProtocolError('OFFSET_NOT_INCREASING', 'element 0 has offset 7, not after beginExclusive 7'),
      );
    });
  });

  it('leaves the order check to a source that does it (checksElementOrder), so it runs once', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      // a source that claims to check is trusted: what it lets through is delivered (here, on purpose, a step
      // back that the engine itself would have refused); a checkpoint at the offset reached is still skipped
      const source = { ...fakeSource([() => cold('-a-b-c|', { a: tx(5), b: tx(3), c: cp(3) }), () => cold<JsGetUpdatesResponse>('-')]), checksElementOrder: true };
      expectObservable(tailUpdates(source, config()), '^ 10ms !').toBe('-a-b', { a: tx(5), b: tx(3) });
    });
  });

  it('retries a transport failure after the backoff, resuming after the last delivered offset', () => {
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const statuses: TailStatus[] = [];
      const page1 = cold('-a-b-#', { a: tx(1), b: tx(2) }, reset);
      const page2 = cold('-c|', { c: tx(3) });
      const source = fakeSource([() => page1, () => page2, () => cold<JsGetUpdatesResponse>('-')]);
      expectObservable(tailUpdates(source, config({ onStatus: (s) => statuses.push(s) })), '^ 25ms !').toBe('-a-b 12ms c', {
        a: tx(1),
        b: tx(2),
        c: tx(3),
      });
      expectSubscriptions(page1.subscriptions).toBe('^----!');
      expectSubscriptions(page2.subscriptions).toBe('15ms ^-!');
      cold('26ms |').subscribe({
        complete: () => {
          expect(source.calls.map((c) => c.request.beginExclusive)).toEqual([0, 2, 3]);
          expect(course(statuses)).toEqual([
            { type: 'transport-selected', transport: 'list', requested: 'auto' },
            { type: 'resumed', fromOffset: 0, attempt: 0, transport: 'list' },
            { type: 'retrying', attempt: 1, delayMs: 10, error: reset },
            { type: 'resumed', fromOffset: 2, attempt: 1, transport: 'list' },
            { type: 'caught-up', offset: 3 },
          ]);
        },
      });
    });
  });

  it('honours retryInfo when it asks for a longer wait than the backoff', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const busy = cantonError(503, 'SERVICE_BUSY', 1, { retryInfo: '50 milliseconds' });
      const source = fakeSource([() => cold('-#', undefined, busy), () => cold('-a|', { a: tx(1) }), () => cold<JsGetUpdatesResponse>('-')]);
      expectObservable(tailUpdates(source, config()), '^ 60ms !').toBe('52ms a', { a: tx(1) });
    });
  });

  it('honours retryInfo even beyond maxDelayMs (the server asked for it)', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const busy = cantonError(503, 'SERVICE_BUSY', 1, { retryInfo: '2 seconds' });
      const source = fakeSource([() => cold('-#', undefined, busy), () => cold('-a|', { a: tx(1) }), () => cold<JsGetUpdatesResponse>('-')]);
      // maxDelayMs is 1 000 in this config: the wait is still the 2 000 ms the server asked for
      expectObservable(tailUpdates(source, config()), '^ 2100ms !').toBe('2002ms a', { a: tx(1) });
    });
  });

  it('gives up with RetriesExhaustedError after maxAttempts, backing off exponentially', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const page = () => cold<JsGetUpdatesResponse>('-#', undefined, reset);
      const source = fakeSource([page, page, page]);
      // attempt 1 at 1+10, attempt 2 at 12+20, then the third failure at 33 exhausts maxAttempts = 2
      expectObservable(tailUpdates(source, config({ retry: { ...noRetryJitter, maxAttempts: 2 } }))).toBe(
        '33ms #',
        undefined,
        new RetriesExhaustedError(2, reset),
      );
    });
  });

  it('stops at once on an error that is not retryable', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const invalid = cantonError(400, 'INVALID_ARGUMENT', 8);
      const source = fakeSource([() => cold('-a-#', { a: tx(1) }, invalid)]);
      expectObservable(tailUpdates(source, config())).toBe('-a-#', { a: tx(1) }, invalid);
    });
  });

  it('surfaces a pruned start as PrunedOffsetError with the earliest offset', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const pruned = new PrunedOffsetError({
        status: 400,
        body: {
          code: 'PARTICIPANT_PRUNED_DATA_ACCESSED',
          cause: 'pruned',
          correlationId: null,
          traceId: 't',
          context: { earliest_offset: '40' },
          resources: [],
          errorCategory: 9,
          grpcCodeValue: 9,
          retryInfo: null,
          definiteAnswer: null,
        },
      });
      expect(pruned.earliestOffset).toBe(40);
      const source = fakeSource([() => cold('-#', undefined, pruned)]);
      expectObservable(tailUpdates(source, config())).toBe('-#', undefined, pruned);
    });
  });

  it('halves the page limit on a 413 and asks again at once', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const statuses: TailStatus[] = [];
      const tooLarge = cantonError(413, 'JSON_API_MAXIMUM_LIST_ELEMENTS_NUMBER_REACHED', 2, { retryInfo: '1 second' });
      const source = fakeSource([() => cold('-#', undefined, tooLarge), () => cold('-a|', { a: tx(1) }), () => cold<JsGetUpdatesResponse>('-')]);
      expectObservable(tailUpdates(source, config({ pageLimit: 200, onStatus: (s) => statuses.push(s) })), '^ 5ms !').toBe('--a', { a: tx(1) });
      cold('6ms |').subscribe({
        complete: () => {
          // The first catch-up page asks for 8 (it grows while pages fill fast); the 413 halves what was asked.
          expect(source.calls.map((c) => c.options?.limit)).toEqual([8, 4, 1]);
          expect(statuses).toContainEqual({ type: 'limit-lowered', from: 8, to: 4 });
          expect(statuses.some((s) => s.type === 'retrying')).toBe(false);
        },
      });
    });
  });

  it('on a 413 stating the node limit, asks for that limit at once rather than halving', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const statuses: TailStatus[] = [];
      const tooLarge = new LedgerApiError({
        status: 413,
        body: {
          code: 'JSON_API_MAXIMUM_LIST_ELEMENTS_NUMBER_REACHED',
          cause: 'The number of matching elements (151) is greater than the node limit (150).',
          correlationId: null,
          traceId: null,
          context: {},
          resources: [],
          errorCategory: 2,
          grpcCodeValue: 8,
          retryInfo: null,
          definiteAnswer: null,
        },
      });
      const source = fakeSource(
        [() => cold('-#', undefined, tooLarge), () => cold('-a-b|', { a: tx(1), b: tx(3) })],
        () => of({ offset: 10 }),
      );
      const result = tailUpdates(source, config({ pageLimit: 200, endInclusive: 3, onStatus: (s) => statuses.push(s) }));
      expectObservable(result).toBe('--a-b|', { a: tx(1), b: tx(3) });
      cold('10ms |').subscribe({
        complete: () => {
          expect(source.calls.map((c) => c.options?.limit)).toEqual([200, 150]);
          expect(statuses).toContainEqual({ type: 'limit-lowered', from: 200, to: 150 });
        },
      });
    });
  });

  it('completes after the last element at or below endInclusive when the ledger has reached it', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const source = fakeSource(
        [() => cold('-a-b-c|', { a: tx(1), b: tx(5), c: tx(9) }), () => cold('-d|', { d: tx(40) })],
        () => of({ offset: 50 }),
      );
      expectObservable(tailUpdates(source, config({ endInclusive: 40 }))).toBe('-a-b-c-d|', { a: tx(1), b: tx(5), c: tx(9), d: tx(40) });
      cold('9ms |').subscribe({
        complete: () => expect(source.calls.map((c) => [c.request.beginExclusive, c.request.endInclusive])).toEqual([[0, 40], [9, 40]]),
      });
    });
  });

  it('tails open-ended while the ledger is below endInclusive and stops at the first element beyond it', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const source = fakeSource([() => cold('-a-b|', { a: tx(30), b: tx(45) })], () => of({ offset: 35 }));
      expectObservable(tailUpdates(source, config({ endInclusive: 40 }))).toBe('-a-|', { a: tx(30) });
      cold('5ms |').subscribe({ complete: () => expect(source.calls[0]?.request.endInclusive).toBeUndefined() });
    });
  });

  it('never emits when the server never answers, and unsubscribing tears the request down', () => {
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const page = cold<JsGetUpdatesResponse>('-');
      const source = fakeSource([() => page]);
      expectObservable(tailUpdates(source, config()), '^ 8ms !').toBe('');
      expectSubscriptions(page.subscriptions).toBe('^ 8ms !');
    });
  });

  it('keeps polling through empty pages without emitting', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const empty = () => cold<JsGetUpdatesResponse>('--|');
      const source = fakeSource([empty, empty, empty, empty, () => cold<JsGetUpdatesResponse>('-')]);
      expectObservable(tailUpdates(source, config()), '^ 20ms !').toBe('');
      cold('21ms |').subscribe({ complete: () => expect(source.calls.map((c) => c.options?.limit)).toEqual([3, 1, 1, 1, 1]) });
    });
  });

  it('starts from the ledger end when asked', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const source = fakeSource([() => cold('-a|', { a: tx(101) }), () => cold<JsGetUpdatesResponse>('-')], () => cold('--x|', { x: { offset: 100 } }));
      expectObservable(tailUpdates(source, config({ beginExclusive: 'ledger-end' })), '^ 6ms !').toBe('---a', { a: tx(101) });
      cold('7ms |').subscribe({ complete: () => expect(source.calls[0]?.request.beginExclusive).toBe(100) });
    });
  });

  it('resumes from the checkpoint store, and from the fallback when it is empty', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const saved = { offset: 42, synchronizerTimes: [], updatedAt: '2026-01-01T00:00:00Z' };
      const withCheckpoint = fakeSource([() => cold<JsGetUpdatesResponse>('-')]);
      const store = { load: () => cold('-x|', { x: saved }), save: () => cold<void>('|') };
      expectObservable(tailUpdates(withCheckpoint, config({ checkpointStore: store, beginExclusive: 7 })), '^ 3ms !').toBe('');
      const empty = fakeSource([() => cold<JsGetUpdatesResponse>('-')]);
      const emptyStore = { load: () => cold('-x|', { x: undefined }), save: () => cold<void>('|') };
      expectObservable(tailUpdates(empty, config({ checkpointStore: emptyStore, beginExclusive: 7 })), '^ 3ms !').toBe('');
      cold('4ms |').subscribe({
        complete: () => {
          expect(withCheckpoint.calls[0]?.request.beginExclusive).toBe(42);
          expect(empty.calls[0]?.request.beginExclusive).toBe(7);
        },
      });
    });
  });

  it('requests the next page only after the handler has processed the whole page', () => {
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const page1 = cold('-a-b|', { a: tx(1), b: tx(2) });
      const page2 = cold<JsGetUpdatesResponse>('-');
      const source = fakeSource([() => page1, () => page2]);
      const handler = () => cold<JsGetUpdatesResponse>('---|');
      const result = tailUpdates(source, config({ pageLimit: 2, handler }));
      expectObservable(result, '^ 12ms !').toBe('----a--b', { a: tx(1), b: tx(2) });
      expectSubscriptions(page1.subscriptions).toBe('^---!');
      expectSubscriptions(page2.subscriptions).toBe('-------^ 5ms !');
    });
  });

  it('a page failing while its handler runs: the elements received are handled once, then the retry resumes after them', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const handled: number[] = [];
      const source = fakeSource([
        () => cold('-a-b-#', { a: tx(1), b: tx(2) }, reset),
        () => cold('-c|', { c: tx(3) }),
        () => cold<JsGetUpdatesResponse>('-'),
      ]);
      const handler = (e: JsGetUpdatesResponse) => {
        handled.push(updateOffset(e) as number);
        return cold<JsGetUpdatesResponse>('------|');
      };
      const result = tailUpdates(source, config({ pageLimit: 5, handler }));
      // a is handled 1→7, b 7→13; the failure at 5 waits for them; retry 10 ms later (23); c handled 24→30
      expectObservable(result, '^ 40ms !').toBe('-------a-----b' + '-'.repeat(16) + 'c', { a: tx(1), b: tx(2), c: tx(3) });
      cold('41ms |').subscribe({
        complete: () => {
          expect(handled).toEqual([1, 2, 3]);
          expect(source.calls.map((c) => c.request.beginExclusive)).toEqual([0, 2, 3]);
        },
      });
    });
  });

  it('delivers an unknown variant without moving the cursor when it has no offset', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const unknown = { update: { unknownVariant: 'FutureThing', payload: {} } } as unknown as JsGetUpdatesResponse;
      const source = fakeSource([() => cold('-a-u-b|', { a: tx(1), u: unknown, b: tx(2) }), () => cold<JsGetUpdatesResponse>('-')]);
      expectObservable(tailUpdates(source, config()), '^ 9ms !').toBe('-a-u-b', { a: tx(1), u: unknown, b: tx(2) });
      cold('10ms |').subscribe({ complete: () => expect(source.calls[1]?.request.beginExclusive).toBe(2) });
    });
  });

  it('starts over from the start position on each subscription', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const source = fakeSource([() => cold('-a|', { a: tx(1) }), () => cold('-b|', { b: tx(1) })]);
      const tail = tailUpdates(source, config()).pipe(take(1));
      expectObservable(concat(tail, tail)).toBe('-a(b|)', { a: tx(1), b: tx(1) });
    });
  });

  it('shrinks the page when full pages fill more slowly than the target latency (a live stream)', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const letters = 'abcdefgh';
      const values = Object.fromEntries([...letters].map((l, i) => [l, tx(i + 1)]));
      const source = fakeSource([() => cold('-a-b-c-d-e-f-g-h|', values), () => cold<JsGetUpdatesResponse>('-')]);
      expectObservable(tailUpdates(source, config({ pageLimit: 8, targetLatencyMs: 10 })), '^ 20ms !').toBe('-a-b-c-d-e-f-g-h', values);
      // 8 elements took 16 ms against a 10 ms target: the next page asks for floor(8 * 10 / 16) = 5.
      cold('21ms |').subscribe({ complete: () => expect(source.calls.map((c) => c.options?.limit)).toEqual([8, 5]) });
    });
  });

  it('starts small, again after a long poll, and doubles while full pages fill fast (a backlog)', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const page = (from: number, n: number) => {
        const letters = 'abcdefghijklmnop'.slice(0, n);
        const values = Object.fromEntries([...letters].map((l, i) => [l, tx(from + i)]));
        return () => cold(`-${letters}|`, values);
      };
      const source = fakeSource([page(1, 1), page(2, 1), page(3, 8), page(11, 16), () => cold<JsGetUpdatesResponse>('-')]);
      const result = tailUpdates(source, config({ pageLimit: 32, targetLatencyMs: 50 }));
      expectObservable(result, '^ 40ms !').toBe('-a-b-cdefghij-klmnopqrstuvwxyz', {
        ...Object.fromEntries([...'abcdefghijklmnopqrstuvwxyz'].map((l, i) => [l, tx(i + 1)])),
      });
      cold('40ms |').subscribe({
        // catch-up from 8 (short) → long poll 1 → catch-up from 8, full and fast → 16 → 32
        complete: () => expect(source.calls.map((c) => c.options?.limit)).toEqual([8, 1, 8, 16, 32]),
      });
    });
  });

  it('raises the catch-up idle timeout when the participant\'s first element is slower than it', () => {
    createTestScheduler().run(({ flush }) => {
      const ledger = Array.from({ length: 100 }, (_, i) => ({ offset: i + 1, at: 0 }));
      const source = fakeSource(Array.from({ length: 500 }, () => simulatedParticipant(ledger, 60)), simulatedLedgerEnd(ledger));
      const statuses: TailStatus[] = [];
      const got: JsGetUpdatesResponse[] = [];
      tailUpdates(source, config({ pageLimit: 50, onStatus: (s) => statuses.push(s) })).pipe(take(100)).subscribe((e) => got.push(e));
      flush();
      expect(got.map((e) => updateOffset(e))).toEqual(ledger.map((e) => e.offset));
      expect(statuses.filter((s) => s.type === 'idle-timeout-raised')).toEqual([
        { type: 'idle-timeout-raised', from: 20, to: 40 },
        { type: 'idle-timeout-raised', from: 40, to: 80 },
      ]);
      // without the raise every element would cost a long poll and an empty catch-up page (~200 requests)
      expect(source.calls.length).toBeLessThan(30);
      expect(source.calls.at(-1)?.options?.streamIdleTimeoutMs).toBe(80);
    });
  });

  it('keeps the short idle timeout for a quiet live stream faster than 4/s (the demo: 20 tx/s after a seeded history)', () => {
    createTestScheduler().run(({ flush }) => {
      // 50 seeded transactions, then one every 50 ms from 1 s on; offsets with gaps (other parties' updates)
      const seeded = Array.from({ length: 50 }, (_, i) => ({ offset: 2 * i + 1, at: 0 }));
      const live = Array.from({ length: 60 }, (_, i) => ({ offset: 101 + 3 * i, at: 1_000 + 50 * i }));
      const ledger = [...seeded, ...live];
      let ledgerEndReads = 0;
      const ledgerEnd = simulatedLedgerEnd(ledger);
      const source = fakeSource(Array.from({ length: 400 }, () => simulatedParticipant(ledger, 2)), () => (ledgerEndReads++, ledgerEnd()));
      const statuses: TailStatus[] = [];
      const got: JsGetUpdatesResponse[] = [];
      tailUpdates(source, config({ pageLimit: 50, onStatus: (s) => statuses.push(s) })).pipe(take(ledger.length)).subscribe((e) => got.push(e));
      flush();
      expect(got.map((e) => updateOffset(e))).toEqual(ledger.map((e) => e.offset));
      expect(statuses.filter((s) => s.type === 'idle-timeout-raised')).toEqual([]);
      expect(new Set(source.calls.map((c) => c.options?.streamIdleTimeoutMs))).toEqual(new Set([20, 5_000]));
      // each live update costs a long poll and an empty catch-up page; the ledger-end checks back off
      expect(ledgerEndReads).toBeGreaterThan(0);
      expect(ledgerEndReads).toBeLessThan(live.length / 4);
    });
  });

  it('keeps the short idle timeout for a sparse live stream (no false alarm)', () => {
    createTestScheduler().run(({ flush }) => {
      const ledger = Array.from({ length: 20 }, (_, i) => ({ offset: 2 * i + 1, at: (i + 1) * 1_000 }));
      const source = fakeSource(Array.from({ length: 200 }, () => simulatedParticipant(ledger, 5)));
      const statuses: TailStatus[] = [];
      const got: JsGetUpdatesResponse[] = [];
      tailUpdates(source, config({ pageLimit: 50, onStatus: (s) => statuses.push(s) })).pipe(take(20)).subscribe((e) => got.push(e));
      flush();
      expect(got.map((e) => updateOffset(e))).toEqual(ledger.map((e) => e.offset));
      expect(statuses.some((s) => s.type === 'idle-timeout-raised')).toBe(false);
      expect(new Set(source.calls.map((c) => c.options?.streamIdleTimeoutMs))).toEqual(new Set([20, 5_000]));
    });
  });

  it('rejects contradictory configuration before subscribing', () => {
    const source = fakeSource([]);
    expect(() => tailUpdates(source, { pageLimit: 0, ...format })).toThrow(/pageLimit/);
    expect(() => tailUpdates(source, { ...format, filter: {} })).toThrow(/either updateFormat/);
    expect(() => tailUpdates(source, {})).toThrow(/required/);
    expect(() => tailUpdates(source, { ...format, beginExclusive: 9, endInclusive: 3 })).toThrow(/endInclusive/);
    expect(source.calls).toEqual([]);
  });

  it('delivers exactly the ledger, in order, through pages cut by faults', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      // A ledger with gaps between offsets, served by a fake server that honours beginExclusive and limit.
      const ledger = Array.from({ length: 40 }, (_, i) => tx(4 * i + (i % 3) + 1));
      const offsets = ledger.map((e) => updateOffset(e) as number);
      let call = 0;
      const source = {
        updates: (request: { beginExclusive: number | string }, options?: { limit?: number }) => {
          call++;
          const after = ledger.filter((e) => (updateOffset(e) as number) > Number(request.beginExclusive)).slice(0, options?.limit ?? 200);
          const letters = after.map((_, i) => String.fromCharCode(97 + i));
          const values = Object.fromEntries(after.map((e, i) => [letters[i], e]));
          // Every third call breaks after one element; the others deliver the page.
          if (call % 3 === 0 && after.length > 1) return cold(`-${letters[0]}-#`, values, reset);
          return cold(`-${letters.join('')}|`, values);
        },
        ledgerEnd: () => of({ offset: 0 }),
      };
      const delivered: number[] = [];
      const result = tailUpdates(source as never, config({ pageLimit: 4, retry: { ...noRetryJitter, maxAttempts: 100 } })).pipe(take(ledger.length));
      result.subscribe((e) => delivered.push(updateOffset(e) as number));
      expectObservable(result.pipe(take(0))).toBe('|');
      cold('2000ms |').subscribe({
        complete: () => {
          expect(delivered).toEqual(offsets);
          expectIncreasing(ledger);
        },
      });
    });
  });
});
