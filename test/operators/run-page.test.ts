import { Subject, from, of, timer, type ObservableInput } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { ProtocolError, TransportError } from '../../src/errors/index.js';
import type { PagePlan } from '../../src/operators/internal/page-plan.js';
import { runPage } from '../../src/operators/internal/run-page.js';
import type { JsGetUpdatesResponse } from '../../src/schemas/index.js';
import { cp, tx } from '../support/fake-updates-source.js';
import { createTestScheduler } from '../support/test-scheduler.js';

const updateFormat = { includeTransactions: { eventFormat: { filtersByParty: {} }, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' as const } };
const plan = (extra: Partial<PagePlan> & { beginExclusive?: number; endInclusive?: number; descendingOrder?: boolean } = {}): PagePlan => {
  const { beginExclusive = 10, endInclusive, descendingOrder, ...rest } = extra;
  return { request: { updateFormat, beginExclusive, ...(endInclusive === undefined ? {} : { endInclusive }), ...(descendingOrder === undefined ? {} : { descendingOrder }) }, options: {}, ...rest };
};
const item = (element: JsGetUpdatesResponse, offset: number) => ({ element, offset });
const reset = new TransportError('CONNECTION_RESET', 'reset');

describe('runPage (one page, whatever transport brought the answer)', () => {
  it('delivers in order, skips a checkpoint at the offset reached (at the start too), and counts what came', () => {
    createTestScheduler().run(({ cold, expectObservable, flush }) => {
      const page = runPage(cold('-a-b-c-d|', { a: cp(10), b: tx(11), c: cp(11), d: cp(12) }), plan(), { checkOrder: true, handler: undefined });
      expectObservable(page.elements).toBe('---b---d|', { b: item(tx(11), 11), d: item(cp(12), 12) });
      flush();
      expect(page.tally).toEqual({ received: 4, reachedStop: false });
    });
  });

  it('checks the order against the request unless told the source did', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const answer = cold('-a-b|', { a: tx(12), b: tx(11) });
      const checked = runPage(answer, plan(), { checkOrder: true, handler: undefined });
      expectObservable(checked.elements).toBe('-a-#', { a: item(tx(12), 12) }, new ProtocolError('OFFSET_NOT_INCREASING', 'element 1 has offset 11, after 12 in an ascending answer'));
      const trusted = runPage(answer, plan(), { checkOrder: false, handler: undefined });
      expectObservable(trusted.elements).toBe('-a-b|', { a: item(tx(12), 12), b: item(tx(11), 11) });
      const descending = runPage(cold('-a|', { a: tx(21) }), plan({ beginExclusive: 0, endInclusive: 20, descendingOrder: true }), { checkOrder: true, handler: undefined });
      expectObservable(descending.elements).toBe('-#', undefined, new ProtocolError('OFFSET_NOT_INCREASING', 'element 0 has offset 21, after endInclusive 20'));
    });
  });

  it('ends the page at the first element beyond stopAfter and stops listening', () => {
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions, flush }) => {
      const answer = cold('-a-b-c|', { a: tx(11), b: tx(12), c: tx(13) });
      const page = runPage(answer, plan({ stopAfter: 11 }), { checkOrder: true, handler: undefined });
      expectObservable(page.elements).toBe('-a-|', { a: item(tx(11), 11) });
      expectSubscriptions(answer.subscriptions).toBe('^--!');
      flush();
      expect(page.tally).toEqual({ received: 2, reachedStop: true });
    });
  });

  it('with a handler: each element after its handler, and a failure only after the elements before it were handled', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const handler = () => timer(5); // each element takes 5 ms of async work
      const page = runPage(cold('-a-b#', { a: tx(11), b: tx(12) }, reset), plan(), { checkOrder: true, handler });
      expectObservable(page.elements).toBe('------a----(b#)', { a: item(tx(11), 11), b: item(tx(12), 12) }, reset);
    });
  });
  it('with a handler that returns an array: each element delivered as it arrives, the pending count back to 0 each time', () => {
    createTestScheduler().run(({ cold, expectObservable, flush }) => {
      const pending: number[] = [];
      const handled: number[] = [];
      const handler = (e: JsGetUpdatesResponse): ObservableInput<unknown> => {
        handled.push((e as unknown as { update: { Transaction: { value: { offset: number } } } }).update.Transaction.value.offset);
        return ['ignored'];
      };
      const page = runPage(cold('-a-b|', { a: tx(11), b: tx(12) }), plan(), { checkOrder: true, handler, onPending: (n) => pending.push(n) });
      expectObservable(page.elements).toBe('-a-b|', { a: item(tx(11), 11), b: item(tx(12), 12) });
      flush();
      expect(handled).toEqual([11, 12]);
      expect(pending).toEqual([1, 0, 1, 0]);
    });
  });

  it('with a handler: arrays and work to wait for mixed, delivered in order, one handler at a time', () => {
    createTestScheduler().run(({ cold, expectObservable, flush }) => {
      const started: string[] = [];
      const pending: number[] = [];
      // a waits 3 ms, b returns nothing to wait for but is queued behind a, c completes synchronously
      const work: Record<string, () => ObservableInput<unknown>> = { u11: () => timer(3), u12: () => [], u13: () => of(1, 2) };
      const handler = (e: JsGetUpdatesResponse) => {
        const id = (e as unknown as { update: { Transaction: { value: { updateId: string } } } }).update.Transaction.value.updateId;
        started.push(id);
        return work[id]?.() ?? [];
      };
      const page = runPage(cold('-(abc|)', { a: tx(11), b: tx(12), c: tx(13) }), plan(), { checkOrder: true, handler, onPending: (n) => pending.push(n) });
      expectObservable(page.elements).toBe('----(abc|)', { a: item(tx(11), 11), b: item(tx(12), 12), c: item(tx(13), 13) });
      flush();
      expect(started).toEqual(['u11', 'u12', 'u13']);
      expect(pending).toEqual([1, 2, 3, 2, 1, 0]);
    });
  });

  it('with a handler: its error (thrown, or of the work it returned) ends the page, and what it returned must be an ObservableInput', async () => {
    const boom = new Error('boom');
    createTestScheduler().run(({ cold, expectObservable }) => {
      const a = tx(11);
      const answer = cold('-a-b|', { a, b: tx(12) });
      const throwing = runPage(answer, plan(), { checkOrder: true, handler: () => { throw boom; } });
      expectObservable(throwing.elements).toBe('-#', undefined, boom);
      const failing = runPage(answer, plan(), { checkOrder: true, handler: (e) => (e === a ? [] : cold('--#', undefined, boom)) });
      expectObservable(failing.elements).toBe('-a---#', { a: item(a, 11) }, boom);
    });
    const errors: unknown[] = [];
    runPage(of(tx(11)), plan(), { checkOrder: true, handler: () => undefined as unknown as ObservableInput<unknown> }).elements.subscribe({ error: (e: unknown) => errors.push(e) });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(TypeError);
    // a rejected promise ends the page with its reason, after the elements before it
    const got: number[] = [];
    const rejected = await new Promise<unknown>((resolve) => {
      runPage(from([tx(11), tx(12)]), plan(), { checkOrder: true, handler: (e) => (e.update && 'Transaction' in e.update && e.update.Transaction.value.offset === 12 ? Promise.reject(boom) : Promise.resolve()) }).elements.subscribe({
        next: (x) => got.push(x.offset ?? -1),
        error: resolve,
      });
    });
    expect(rejected).toBe(boom);
    expect(got).toEqual([11]);
  });

  it('with a handler: unsubscribing inside the delivery of an element stops the handlers and the answer', () => {
    const answer = new Subject<JsGetUpdatesResponse>();
    const handled: JsGetUpdatesResponse[] = [];
    const got: unknown[] = [];
    const subscription = runPage(answer, plan(), { checkOrder: true, handler: (e) => (handled.push(e), []) }).elements.subscribe((x) => {
      got.push(x.offset);
      subscription.unsubscribe();
    });
    answer.next(tx(11));
    answer.next(tx(12));
    expect(got).toEqual([11]);
    expect(handled).toHaveLength(1);
    expect(answer.observed).toBe(false);
  });
});
