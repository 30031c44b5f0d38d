import { BehaviorSubject, EMPTY, Observable, concatMap, defer, finalize, from, of, retry, take, tap, throwError, timer, type ObservableInput, type SchedulerLike } from 'rxjs';
import type { ResolvedRetryConfig } from '../../retry/retry-config.js';
import type { TailStatus } from '../tail-status.js';
import type { ElementOffsets } from './element-offsets.js';
import { initialReadState, nextReadState, type ReadEvent, type ReadSpec, type ReadState } from './next-read-state.js';
import type { AnswerContext, PageAnswer } from './page-answer.js';
import type { PageChain } from './page-chain.js';
import type { PagePlan } from './page-plan.js';
import { ReadMeter } from './read-meter.js';
import { repeatPages } from './repeat-pages.js';
import { runPage } from './run-page.js';

/** With a `handler`, a streaming answer is paused when this many elements wait for it, and resumed at {@link resumeBelow}. */
const pauseAt = 128;
const resumeBelow = 32;

/** Settings of {@link readEngine}. */
export interface ReadEngineConfig<E, R, B = PageChain> {
  readonly pageLimit: number;
  readonly retry: ResolvedRetryConfig;
  readonly scheduler: SchedulerLike;
  readonly onStatus: ((status: TailStatus) => void) | undefined;
  readonly handler?: ((element: E) => ObservableInput<unknown>) | undefined;
  /** The transport strategies: the answer to a plan through its transport, in the one answer shape. */
  readonly answer: (plan: PagePlan<R>, context: AnswerContext) => PageAnswer<E, B>;
  readonly elements: ElementOffsets<E>;
  /** The source checks each answer's order (`UpdatesSource.checksElementOrder`; default: it does not); `page` answers are checked anyway. */
  readonly checksElementOrder?: boolean | undefined;
}

/**
 * The read engine of every resumable read (`tailUpdates`, `readDescending`, `tailCompletions`,
 * `activeContractsSnapshot`): {@link nextReadState} is the policy, the strategies (`config.answer`) give each
 * transport's answer one shape, and this runs them: it plans a page, runs it over the answer with
 * {@link runPage} (the order checked here unless the source checks; `handler` before delivery; a streaming
 * answer paused while 128 elements wait for the handler, resumed below 32), feeds the events to the policy,
 * reports its statuses (and, with `onStatus`, `request` and `progress` as `config.elements.metrics` says)
 * and waits what it says after a failure; {@link repeatPages} repeats pages until the read is complete. The
 * next page is requested only after the previous one was handled, so memory stays within one page.
 *
 * Emits elements in offset order, each once. Completes when `spec` says so. Errors with a `ProtocolError`
 * when offsets go the wrong way, with a non-retryable error as it is, with `RetriesExhaustedError` when
 * retries run out. Unsubscribing aborts the call in flight.
 */
export function readEngine<S, E, R, B = PageChain>(spec: ReadSpec<S, E, R, B>, config: ReadEngineConfig<E, R, B>): Observable<E> {
  return defer(() => {
    let state: ReadState<S> = initialReadState(config.pageLimit);
    const status = (s: TailStatus) => config.onStatus?.(s);
    const metrics = config.elements.metrics;
    const meter = config.onStatus && metrics ? new ReadMeter<E>(status, config.scheduler, metrics === 'requests' ? undefined : metrics) : undefined;
    /** Feeds `event` to the policy, reports its statuses, and returns what it says after a failure. */
    const on = (event: ReadEvent<S, E, R, B>) => {
      const step = nextReadState(state, event, spec, config.retry);
      state = step.state;
      for (const s of step.statuses) status(s);
      return step.retry;
    };
    const position = () => spec.position(state.read as S);

    const pageOf = (plan: PagePlan<R>): Observable<E> =>
      new Observable<E>((subscriber) => {
        const started = config.scheduler.now();
        let ended = false;
        meter?.start(plan.transport ?? 'list');
        // a streaming answer is paused while the handler is behind, so the socket, not memory, holds the backlog
        // (told on every element: the state is kept in a local, not read back from the subject each time)
        const paused = new BehaviorSubject(false);
        let pausing = false;
        const onPending = (pending: number) => {
          const pause = pending >= pauseAt ? true : pending < resumeBelow ? false : pausing;
          if (pause === pausing) return;
          pausing = pause;
          paused.next(pause);
        };
        const options = meter ? { ...plan.options, onBytes: meter.onBytes } : plan.options;
        const answer = config.answer(plan, { options, paused, scheduler: config.scheduler });
        // a `get-updates-page` chain is checked here, across pages (each page's request starts at the chain's begin)
        const checkOrder = plan.transport === 'page' || !config.checksElementOrder;
        const page = runPage(answer.elements, plan, { checkOrder, handler: config.handler, onPending }, config.elements);
        const report = (outcome: 'ok' | 'error' | 'cancelled', error?: unknown) => {
          ended = true;
          meter?.ended(position(), outcome, page.tally.received, plan.options.limit, config.scheduler.now() - started, error);
        };
        const subscription = page.elements.subscribe({
          next: ({ element, offset }) => {
            // counted and positioned before it is emitted: a consumer that unsubscribes on it (take(n)) ends
            // the read inside next(), and the read's last report must include it
            on({ type: 'delivered', offset, element });
            meter?.delivered(element, position());
            subscriber.next(element);
          },
          error: (e: unknown) => {
            report('error', e);
            subscriber.error(e);
          },
          complete: () => {
            report('ok');
            const { received, reachedStop } = page.tally;
            on({ type: 'page-ended', plan, received, reachedStop, durationMs: config.scheduler.now() - started, bounds: answer.bounds() });
            subscriber.complete();
          },
        });
        return () => {
          subscription.unsubscribe();
          if (!ended) report('cancelled');
        };
      });

    const onePage = defer(() => {
      const read$ = state.read === undefined ? from(spec.start()).pipe(take(1), tap((read) => on({ type: 'started', read }))) : of(state.read);
      return read$.pipe(
        tap(() => on({ type: 'ready' })),
        concatMap((read) => from(spec.plan(read, state.limit)).pipe(take(1))),
        concatMap((plan) => {
          on({ type: 'planned', plan });
          return plan === null ? EMPTY : pageOf(plan);
        }),
      );
    });

    const pages = onePage.pipe(
      retry({
        delay: (error: unknown) => {
          const next = on({ type: 'failed', error }) ?? { error };
          if ('error' in next) return throwError(() => next.error);
          return 'now' in next ? of(0) : timer(next.delayMs, config.scheduler);
        },
      }),
    );
    return repeatPages(pages, () => state.finished, config.scheduler).pipe(finalize(() => meter?.dispose()));
  });
}
