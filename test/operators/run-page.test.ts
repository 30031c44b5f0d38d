import { timer } from 'rxjs';
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
});
