import { asyncScheduler, concat, concatMap, defer, EMPTY, filter, from, map, of, repeat, retry, tap, throwError, timer, type Observable, type SchedulerLike } from 'rxjs';
import { completionOffset } from '../completions/completion-offset.js';
import { isCompletionCheckpoint } from '../completions/is-completion-checkpoint.js';
import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import { onPageFailure } from '../retry/on-page-failure.js';
import { resolveRetryConfig } from '../retry/resolve-retry-config.js';
import type { RetryConfig } from '../retry/retry-config.js';
import type { CompletionStreamResponse } from '../schemas/index.js';
import type { CompletionsSource } from './completions-source.js';
import { fullPageLimit } from './internal/full-page-limit.js';
import { tailStartLimit as startLimit } from './internal/tail-state.js';
import type { TailStatus } from './tail-status.js';

/** Options of {@link tailCompletions}. */
export interface TailCompletionsConfig {
  /**
   * Whose completions: commands acting as one of these parties. Required with `endpoint: 'completions'`;
   * with `command-completions` (the default) none means every party (the user needs `CanReadAsAnyParty`).
   */
  readonly parties?: readonly string[];
  /** `endpoint: 'completions'` only: whose commands (the token's user when left out). */
  readonly userId?: string;
  /** Which endpoint (see `LedgerClient.completions`). Default `command-completions`. */
  readonly endpoint?: 'command-completions' | 'completions';
  /** Where to start: an offset (exclusive), `'begin'` (0) or `'ledger-end'`. Default `'ledger-end'`. */
  readonly beginExclusive?: number | 'begin' | 'ledger-end';
  /** `websocket` (default: one endless stream) or `list` (page after page, long-polling once caught up). */
  readonly transport?: 'websocket' | 'list';
  /** List: elements per catch-up page (lowered after a 413). Default 200. */
  readonly pageLimit?: number;
  /** List: `stream_idle_timeout_ms` of catch-up pages. Default 20. */
  readonly idleTimeoutMs?: number;
  /** List: `stream_idle_timeout_ms` of the long poll (`limit` 1) once caught up. Default 5 000. */
  readonly longPollMs?: number;
  /**
   * List: how long a catch-up page may take to fill, in ms. The participant answers a list only when it is
   * complete, so under a steady stream of completions a page of `pageLimit` would hold the first of them
   * until the last arrived; a page that filled more slowly than this is made smaller, one that filled in
   * under half of it twice as large (up to `pageLimit`). After a long poll brought a completion, catch-up
   * starts again from a small page. Default 50.
   */
  readonly targetLatencyMs?: number;
  /** Retry policy (as `tailUpdates`'); `false` fails on the first error. */
  readonly retry?: RetryConfig | false;
  /** Scheduler of the backoff timers. Default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike;
  /** Side channel: `resumed`, `retrying`, `caught-up` (list), `limit-lowered`, `ledger-end`. */
  readonly onStatus?: (status: TailStatus) => void;
  /** Validate elements against the wire schema (default: the client's). */
  readonly validate?: boolean;
  /** Keep each element's exact JSON text (default false). */
  readonly rawText?: boolean;
}

function checkConfig(c: TailCompletionsConfig): void {
  const int = (name: string, v: number | undefined, min: number) => {
    if (v !== undefined && (!Number.isSafeInteger(v) || v < min)) throw new InvalidArgumentError(name, `must be an integer >= ${min}`);
  };
  if (typeof c.beginExclusive === 'number') int('beginExclusive', c.beginExclusive, 0);
  int('pageLimit', c.pageLimit, 1);
  int('idleTimeoutMs', c.idleTimeoutMs, 0);
  int('longPollMs', c.longPollMs, 1);
  int('targetLatencyMs', c.targetLatencyMs, 1);
  if (c.transport !== undefined && c.transport !== 'websocket' && c.transport !== 'list') throw new InvalidArgumentError('transport', "must be 'websocket' or 'list'");
  if (c.endpoint === 'completions' && (c.parties === undefined || c.parties.length === 0)) {
    throw new InvalidArgumentError('parties', "the 'completions' endpoint needs at least one party");
  }
}

/**
 * An endless, resumable tail of the completions of submitted commands: every `Completion` once, in offset
 * order, with the `OffsetCheckpoint`s that move the position (a checkpoint at the offset already reached is
 * skipped).
 *
 * Over `websocket` it is one stream, resumed after the last element delivered when it breaks (a closed
 * socket, a silent one, a retryable error: after `retry`'s backoff; `onPageFailure` decides). Over `list` it
 * is a loop of `POST` lists, like `tailUpdates`: catch-up pages of up to `pageLimit` with a short idle timeout
 * while behind, sized to fill within `targetLatencyMs`, then long polls of one element, which the participant
 * answers as soon as a completion exists; a 413 lowers the page.
 *
 * Never completes. Errors with a non-retryable error (a pruned start is `PrunedOffsetError`), or
 * `RetriesExhaustedError`. Invalid options throw `InvalidArgumentError` at the call. Cold: each subscription
 * starts again from `beginExclusive`. Unsubscribing aborts the read in flight.
 */
export function tailCompletions(source: CompletionsSource, config: TailCompletionsConfig = {}): Observable<CompletionStreamResponse> {
  checkConfig(config);
  const retryConfig = resolveRetryConfig(config.retry);
  const scheduler = config.scheduler ?? asyncScheduler;
  const transport = config.transport ?? 'websocket';
  const endpoint = config.endpoint ?? 'command-completions';
  const pageLimit = config.pageLimit ?? 200;
  const idle = config.idleTimeoutMs ?? 20;
  const longPoll = config.longPollMs ?? 5_000;
  const targetLatency = config.targetLatencyMs ?? 50;
  const { onStatus } = config;
  const decoding = {
    ...(config.validate === undefined ? {} : { validate: config.validate }),
    ...(config.rawText === undefined ? {} : { rawText: config.rawText }),
  };

  const start = (): Observable<number> => {
    const begin = config.beginExclusive ?? 'ledger-end';
    if (begin === 'begin') return of(0);
    if (typeof begin === 'number') return of(begin);
    return from(source.ledgerEnd()).pipe(
      map((end) => end.offset ?? 0),
      tap((offset) => onStatus?.({ type: 'ledger-end', offset })),
    );
  };

  return start().pipe(
    concatMap((startAt) => {
      let cursor = startAt;
      let attempt = 0;
      // the catch-up page's size, adapted to time, and its upper bound (`pageLimit`, lowered by a 413)
      let cap = pageLimit;
      let limit = pageLimit;
      let live = false;
      let caughtUp = false;

      const request = () =>
        endpoint === 'completions'
          ? { ...(config.userId === undefined ? {} : { userId: config.userId }), parties: [...(config.parties ?? [])], beginExclusive: cursor }
          : { ...(config.parties === undefined ? {} : { parties: [...config.parties] }), beginExclusive: cursor };

      /** Skips checkpoints that do not move the position; moves the cursor past what is delivered. */
      const deliver = (answer: Observable<CompletionStreamResponse>, onElement?: () => void) =>
        answer.pipe(
          tap(() => onElement?.()),
          filter((element) => {
            const offset = completionOffset(element);
            return offset === undefined || offset > cursor || !isCompletionCheckpoint(element);
          }),
          tap((element) => {
            attempt = 0;
            cursor = completionOffset(element) ?? cursor;
          }),
        );

      const streamed = () =>
        defer(() => {
          onStatus?.({ type: 'resumed', fromOffset: cursor, attempt, transport });
          return deliver(source.completions(request(), { endpoint, transport: 'websocket', ...decoding }));
        });

      const listed = () =>
        defer(() => {
          onStatus?.({ type: 'resumed', fromOffset: cursor, attempt, transport });
          const page = () =>
            defer(() => {
              const asked = live ? 1 : limit;
              const started = scheduler.now();
              let received = 0;
              const answer = source.completions(request(), { endpoint, transport: 'list', limit: asked, streamIdleTimeoutMs: live ? longPoll : idle, ...decoding });
              const afterPage = defer(() => {
                const tookMs = scheduler.now() - started;
                if (live) {
                  // A long poll that brought something means traffic: catch up again, from a small page.
                  if (received > 0) {
                    live = false;
                    limit = Math.min(limit, startLimit, cap);
                  }
                } else if (received < asked) {
                  // A short catch-up page: live.
                  live = true;
                  if (!caughtUp) onStatus?.({ type: 'caught-up', offset: cursor });
                  caughtUp = true;
                } else {
                  // A full page: smaller if it filled slowly (a steady stream), larger if fast (a backlog).
                  limit = fullPageLimit(asked, tookMs, targetLatency, cap) ?? limit;
                }
                return EMPTY;
              });
              return concat(deliver(answer, () => received++), afterPage);
            });
          return page().pipe(repeat());
        });

      return defer(() => (transport === 'websocket' ? streamed() : listed())).pipe(
        retry({
          delay: (error: unknown) => {
            attempt++;
            const decision = onPageFailure(error, transport === 'list' && !live ? limit : undefined, attempt, retryConfig);
            if (decision.action === 'lower') {
              attempt--;
              onStatus?.({ type: 'limit-lowered', from: decision.from, to: decision.to });
              cap = decision.to;
              limit = decision.to;
              return of(0);
            }
            if (decision.action === 'fail') return throwError(() => decision.error);
            onStatus?.({ type: 'retrying', attempt, delayMs: decision.delayMs, error });
            return timer(decision.delayMs, scheduler);
          },
        }),
      );
    }),
  );
}
