import { describe, expect, it } from 'vitest';
import { LedgerApiError, RetriesExhaustedError, TransportError } from '../../src/errors/index.js';
import { initialReadState, nextReadState, type ReadSpec, type ReadState } from '../../src/operators/internal/next-read-state.js';
import type { PagePlan } from '../../src/operators/internal/page-plan.js';
import { resolveRetryConfig } from '../../src/retry/resolve-retry-config.js';

/** A read whose state is its cursor; it completes after a page that brought nothing. */
const spec: ReadSpec<number, number, PagePlan['request']> = {
  start: () => [0],
  plan: () => [null],
  delivered: (_cursor, offset) => offset ?? 0,
  pageEnd: (cursor, page) => (page.received === 0 ? null : cursor),
  position: (cursor) => cursor,
  transport: () => 'list',
};
const retry = resolveRetryConfig({ initialDelayMs: 10, maxDelayMs: 100, factor: 2, jitter: 0, maxAttempts: 2 });
const reset = new TransportError('CONNECTION_RESET', 'reset');
const plan = (limit: number): PagePlan => ({ request: { beginExclusive: 0 } as PagePlan['request'], options: { limit } });
const started = (): ReadState<number> => nextReadState(initialReadState<number>(200), { type: 'started', read: 5 }, spec, retry).state;

describe('nextReadState (the read engine policy)', () => {
  it('reports resumed once per (re)start, from the read position', () => {
    const first = nextReadState(started(), { type: 'ready' }, spec, retry);
    expect(first.statuses).toEqual([{ type: 'resumed', fromOffset: 5, attempt: 0, transport: 'list' }]);
    expect(nextReadState(first.state, { type: 'ready' }, spec, retry).statuses).toEqual([]);
  });

  it('a retryable failure waits its backoff and counts; a delivered element starts the count over; retries run out', () => {
    const planned = nextReadState(started(), { type: 'planned', plan: plan(50) }, spec, retry).state;
    const once = nextReadState(planned, { type: 'failed', error: reset }, spec, retry);
    expect(once.retry).toEqual({ delayMs: 10 });
    expect(once.statuses).toEqual([{ type: 'retrying', attempt: 1, delayMs: 10, error: reset }]);
    const twice = nextReadState(once.state, { type: 'failed', error: reset }, spec, retry);
    expect(twice.retry).toEqual({ delayMs: 20 });
    const exhausted = nextReadState(twice.state, { type: 'failed', error: reset }, spec, retry);
    expect((exhausted.retry as { error: unknown }).error).toBeInstanceOf(RetriesExhaustedError);
    const delivered = nextReadState(twice.state, { type: 'delivered', offset: 9, element: 9 }, spec, retry).state;
    expect(delivered).toMatchObject({ read: 9, attempt: 0 });
    expect(nextReadState(delivered, { type: 'failed', error: reset }, spec, retry).retry).toEqual({ delayMs: 10 });
  });

  it('a 413 lowers the limit and asks again at once, without counting an attempt; a page that reached stopAfter completes', () => {
    const planned = nextReadState(started(), { type: 'planned', plan: plan(50) }, spec, retry).state;
    const tooLarge = new LedgerApiError({ status: 413, text: '' });
    const lowered = nextReadState(planned, { type: 'failed', error: tooLarge }, spec, retry);
    expect(lowered.retry).toEqual({ now: true });
    expect(lowered.statuses).toEqual([{ type: 'limit-lowered', from: 50, to: 25 }]);
    expect(lowered.state).toMatchObject({ limit: 25, attempt: 0 });
    const ended = nextReadState(planned, { type: 'page-ended', reachedStop: true, plan: plan(50), received: 3, durationMs: 1, bounds: undefined }, spec, retry);
    expect(ended.state.finished).toBe(true);
    const goesOn = nextReadState(planned, { type: 'page-ended', reachedStop: false, plan: plan(50), received: 3, durationMs: 1, bounds: undefined }, spec, retry);
    expect(goesOn.state.finished).toBe(false);
  });

  it("the spec deals with a failure first: a replaced transport asks again at once and resumes", () => {
    const replacing: ReadSpec<number, number, PagePlan['request']> = { ...spec, failed: (cursor) => ({ state: cursor + 1, now: true }) };
    const step = nextReadState(started(), { type: 'failed', error: new LedgerApiError({ status: 501, text: '' }) }, replacing, retry);
    expect(step.retry).toEqual({ now: true });
    expect(step.state).toMatchObject({ read: 6, resuming: true, attempt: 0 });
  });
});
