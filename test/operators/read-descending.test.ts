import { of } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { ProtocolError, PrunedOffsetError, TransportError } from '../../src/errors/index.js';
import { readDescending } from '../../src/operators/index.js';
import type { JsGetUpdatesResponse } from '../../src/schemas/index.js';
import { fakeSource, tx } from '../support/fake-updates-source.js';
import { createTestScheduler } from '../support/test-scheduler.js';

const updateFormat = { includeTransactions: { eventFormat: { filtersForAnyParty: {} }, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' as const } };
const retry = { initialDelayMs: 10, jitter: 0 };

function pruned(earliest: number): PrunedOffsetError {
  return new PrunedOffsetError({
    status: 400,
    body: {
      code: 'PARTICIPANT_PRUNED_DATA_ACCESSED',
      cause: `pruned up to ${earliest}`,
      correlationId: null,
      traceId: 't',
      context: { earliest_offset: String(earliest) },
      resources: [],
      errorCategory: 9,
      grpcCodeValue: 9,
      retryInfo: null,
      definiteAnswer: null,
    },
  });
}

describe('readDescending', () => {
  it('reads newest first, moving each page below the last offset seen, and completes on a short page', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const source = fakeSource(
        [() => cold('-a-b-c|', { a: tx(100), b: tx(90), c: tx(85) }), () => cold('-d|', { d: tx(50) })],
        () => of({ offset: 100 }),
      );
      expectObservable(readDescending(source, { updateFormat, pageLimit: 3, retry })).toBe('-a-b-c-d|', {
        a: tx(100),
        b: tx(90),
        c: tx(85),
        d: tx(50),
      });
      cold('9ms |').subscribe({
        complete: () =>
          expect(source.calls.map((c) => [c.request.beginExclusive, c.request.endInclusive, c.request.descendingOrder, c.options?.limit])).toEqual([
            [0, 100, true, 3],
            [0, 84, true, 3],
          ]),
      });
    });
  });

  it('starts at a given end and stops above beginExclusive', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const source = fakeSource([() => cold('-a-b|', { a: tx(60), b: tx(41) })]);
      expectObservable(readDescending(source, { updateFormat, endInclusive: 60, beginExclusive: 40, pageLimit: 2, retry })).toBe('-a-b|', {
        a: tx(60),
        b: tx(41),
      });
      cold('5ms |').subscribe({ complete: () => expect(source.calls).toHaveLength(1) });
    });
  });

  it('completes at once on an empty ledger without calling the updates endpoint', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const source = fakeSource([], () => of({ offset: 0 }));
      expectObservable(readDescending(source, { updateFormat })).toBe('|');
      cold('1ms |').subscribe({ complete: () => expect(source.calls).toEqual([]) });
    });
  });

  it('errors when offsets do not decrease', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const source = fakeSource([() => cold('-a-b|', { a: tx(90), b: tx(95) })], () => of({ offset: 100 }));
      expectObservable(readDescending(source, { updateFormat, retry })).toBe(
        '-a-#',
        { a: tx(90) },
        new ProtocolError('OFFSET_NOT_INCREASING', 'element 1 has offset 95, after 90 in a descending answer'),
      );
    });
  });

  it('errors when the first element is above the requested end', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const source = fakeSource([() => cold('-a|', { a: tx(101) })], () => of({ offset: 100 }));
      expectObservable(readDescending(source, { updateFormat, retry })).toBe(
        '-#',
        undefined,
        new ProtocolError('OFFSET_NOT_INCREASING', 'element 0 has offset 101, after endInclusive 100'),
      );
    });
  });

  it('retries from below the last delivered offset after a transport failure', () => {
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const reset = new TransportError('CONNECTION_RESET', 'reset');
      const page1 = cold('-a-#', { a: tx(100) }, reset);
      const page2 = cold('-b|', { b: tx(70) });
      const source = fakeSource([() => page1, () => page2], () => of({ offset: 100 }));
      expectObservable(readDescending(source, { updateFormat, pageLimit: 5, retry })).toBe('-a 12ms b|', { a: tx(100), b: tx(70) });
      expectSubscriptions(page2.subscriptions).toBe('13ms ^-!');
      cold('20ms |').subscribe({ complete: () => expect(source.calls.map((c) => c.request.endInclusive)).toEqual([100, 99]) });
    });
  });

  it('never emits while the server never answers; unsubscribing tears the request down', () => {
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const page = cold<JsGetUpdatesResponse>('-');
      const source = fakeSource([() => page], () => of({ offset: 10 }));
      expectObservable(readDescending(source, { updateFormat }), '^ 5ms !').toBe('');
      expectSubscriptions(page.subscriptions).toBe('^ 5ms !');
    });
  });

  it('without beginExclusive, reads what a pruned participant still has: above the pruning offset it names', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const source = fakeSource([() => cold('-#', undefined, pruned(40)), () => cold('-a-b|', { a: tx(60), b: tx(41) })], () => of({ offset: 60 }));
      expectObservable(readDescending(source, { updateFormat, pageLimit: 3, retry })).toBe('--a-b|', { a: tx(60), b: tx(41) });
      cold('7ms |').subscribe({
        complete: () =>
          expect(source.calls.map((c) => [c.request.beginExclusive, c.request.endInclusive])).toEqual([
            [0, 60],
            [40, 60],
          ]),
      });
    });
  });

  it('without beginExclusive, pruning during the read continues below the last delivered offset, above the new boundary', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const source = fakeSource(
        [() => cold('-a-b|', { a: tx(100), b: tx(90) }), () => cold('-#', undefined, pruned(70)), () => cold('-c|', { c: tx(75) })],
        () => of({ offset: 100 }),
      );
      expectObservable(readDescending(source, { updateFormat, pageLimit: 2, retry })).toBe('-a-b--c|', { a: tx(100), b: tx(90), c: tx(75) });
      cold('9ms |').subscribe({
        complete: () =>
          expect(source.calls.map((c) => [c.request.beginExclusive, c.request.endInclusive])).toEqual([
            [0, 100],
            [0, 89],
            [70, 89],
          ]),
      });
    });
  });

  it('with an explicit beginExclusive that is pruned, errors with PrunedOffsetError', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const error = pruned(40);
      const source = fakeSource([() => cold('-#', undefined, error)], () => of({ offset: 60 }));
      expectObservable(readDescending(source, { updateFormat, beginExclusive: 10, retry })).toBe('-#', undefined, error);
    });
  });

  it('starts over on each subscription (resubscribe)', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const page = () => cold('-a-b|', { a: tx(20), b: tx(10) });
      const source = fakeSource([page, page], () => of({ offset: 20 }));
      const read = readDescending(source, { updateFormat, pageLimit: 5, retry });
      expectObservable(read).toBe('-a-b|', { a: tx(20), b: tx(10) });
      expectObservable(read, '5ms ^').toBe('6ms a-b|', { a: tx(20), b: tx(10) });
      cold('12ms |').subscribe({ complete: () => expect(source.calls.map((c) => c.request.endInclusive)).toEqual([20, 20]) });
    });
  });

  it('rejects bad configuration before subscribing', () => {
    const source = fakeSource([]);
    expect(() => readDescending(source, { updateFormat, endInclusive: 0 })).toThrow(/endInclusive/);
    expect(() => readDescending(source, { updateFormat, beginExclusive: -1 })).toThrow(/beginExclusive/);
    expect(() => readDescending(source, { updateFormat, pageLimit: 0 })).toThrow(/pageLimit/);
    expect(() => readDescending(source, {})).toThrow(/required/);
  });
});
