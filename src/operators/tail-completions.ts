import type { Transport } from '../updates/transport.js';
import { asyncScheduler, concatMap, map, of, type Observable, type SchedulerLike } from 'rxjs';
import { isCompletionCheckpoint } from '../completions/is-completion-checkpoint.js';
import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import { resolveRetryConfig } from '../retry/resolve-retry-config.js';
import type { RetryConfig } from '../retry/retry-config.js';
import type { CompletionStreamRequest, CompletionStreamResponse, GetCompletionsRequest } from '../schemas/index.js';
import type { CompletionsSource } from './completions-source.js';
import { decodingOptions } from './paged-read-options.js';
import { completionOffsets } from './internal/element-offsets.js';
import { nextTailState } from './internal/next-tail-state.js';
import { readEngine } from './internal/read-engine.js';
import { checkInteger } from './internal/check-integer.js';
import { transportChoiceAmong, type TransportChoice } from './internal/transport-choice.js';
import { withTransportChoice } from './internal/with-transport-choice.js';
import { initialTailState, listPageOptions, tailAt, tailSettings, type TailState } from './internal/tail-state.js';
import { resolveOffset } from './internal/resolve-offset.js';
import type { TailStatus } from './tail-status.js';

/** The transports of the completions, in the order `'auto'` tries them (there are no paged completions). */
const completionTransports = ['websocket', 'list'] as const;

/** Where a completions tail stands: its cursor and list page state, and its transport. */
interface CompletionTailState {
  readonly tail: TailState;
  readonly choice: TransportChoice;
}

/** A request of the completions tail: either endpoint's, at a numeric offset. */
type CompletionsRequest = (GetCompletionsRequest | CompletionStreamRequest) & { readonly beginExclusive: number };

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
  /**
   * `websocket` (one endless stream), `list` (page after page, long-polling once caught up), or `'auto'`
   * (the default): the WebSocket, falling back to the list at once when the participant or the path does not
   * carry it (a handshake without an answer, an upgrade a proxy answered, a refusal: docs/transports.md),
   * and skipping it while the same client gave it up within `webSocketCoolOffMs`.
   */
  readonly transport?: Extract<Transport, 'websocket' | 'list' | 'auto'>;
  /** `'auto'`: how long a WebSocket the same source gave up is skipped (as the update reads'). Default 300 000. */
  readonly webSocketCoolOffMs?: number;
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
  /** Side channel: `transport-selected`, `resumed`, `retrying`, `caught-up` (list), `limit-lowered`, `ledger-end`. */
  readonly onStatus?: (status: TailStatus) => void;
  /** Validate elements against the wire schema (default: the client's). */
  readonly validate?: boolean;
  /** Keep each element's exact JSON text (default false). */
  readonly rawText?: boolean;
}

function checkConfig(c: TailCompletionsConfig): void {
  checkInteger('pageLimit', c.pageLimit, 1);
  checkInteger('webSocketCoolOffMs', c.webSocketCoolOffMs, 0);
  if (c.transport !== undefined && c.transport !== 'websocket' && c.transport !== 'list' && c.transport !== 'auto') throw new InvalidArgumentError('transport', "must be 'websocket', 'list' or 'auto'");
  if (c.endpoint === 'completions' && (c.parties === undefined || c.parties.length === 0)) {
    throw new InvalidArgumentError('parties', "the 'completions' endpoint needs at least one party");
  }
}

/**
 * An endless, resumable tail of the completions of submitted commands: every `Completion` once, in offset
 * order, with the `OffsetCheckpoint`s that move the position (a checkpoint at the offset already reached is
 * skipped).
 *
 * It runs on the read engine of `tailUpdates` (resumption, backoff, the order check, a 413 lowering the
 * page), with its transport choice (`'auto'`: websocket → list, docs/transports.md; a `transport-selected`
 * status at the start and after a fallback, with the reason). Over `websocket` it is one stream, resumed after the last element delivered when it breaks (a
 * closed socket, a silent one, a retryable error: after `retry`'s backoff). Over `list` it is a loop of
 * `POST` lists with the list tail's page policy (`nextTailState`): catch-up pages that start small and grow
 * to `pageLimit` with a short idle timeout while behind, sized to fill within `targetLatencyMs`, then long
 * polls of one element, which the participant answers as soon as a completion exists.
 *
 * Never completes. Errors with a non-retryable error (a pruned start is `PrunedOffsetError`), or
 * `RetriesExhaustedError`. Invalid options throw `InvalidArgumentError` at the call. Cold: each subscription
 * starts again from `beginExclusive`. Unsubscribing aborts the read in flight.
 */
export function tailCompletions(source: CompletionsSource, config: TailCompletionsConfig = {}): Observable<CompletionStreamResponse> {
  checkConfig(config);
  const scheduler = config.scheduler ?? asyncScheduler;
  const endpoint = config.endpoint ?? 'command-completions';
  const settings = tailSettings(config);
  const { onStatus } = config;
  const decoding = decodingOptions(config);
  const request = (cursor: number): CompletionsRequest =>
    endpoint === 'completions'
      ? { ...(config.userId === undefined ? {} : { userId: config.userId }), parties: [...(config.parties ?? [])], beginExclusive: cursor }
      : { ...(config.parties === undefined ? {} : { parties: [...config.parties] }), beginExclusive: cursor };

  return readEngine<CompletionTailState, CompletionStreamResponse, CompletionsRequest>(
    withTransportChoice(
      { source, choice: transportChoiceAmong(config.transport ?? 'auto', completionTransports), versioned: {}, coolOffMs: config.webSocketCoolOffMs, scheduler, onStatus },
      {
        start: (chosen) => resolveOffset(config.beginExclusive ?? 'ledger-end', source, onStatus).pipe(concatMap((cursor) => chosen.pipe(map((choice): CompletionTailState => ({ tail: initialTailState(cursor, settings), choice }))))),
        // websocket: one stream from the cursor; list: a catch-up page or a long poll
        plan: ({ tail, choice: { current } }, limit) =>
          of({ transport: current, request: request(tail.cursor), options: current === 'websocket' ? decoding : { ...listPageOptions(tail, limit, settings), ...decoding } }),
        delivered: (state, offset, element) => (offset === undefined ? state : { tail: tailAt(state.tail, offset, isCompletionCheckpoint(element)), choice: state.choice }),
        pageEnd: (state, { received, plan, durationMs }) => {
          if (state.choice.current === 'websocket') return state; // an endless stream that ended: reconnect
          const step = nextTailState(state.tail, { received, asked: plan.options.limit ?? settings.pageLimit, durationMs, bounded: false }, settings);
          if (step.status) onStatus?.(step.status);
          return step.state === null ? null : { ...state, tail: step.state };
        },
        position: (state) => state.tail.cursor,
      },
    ),
    {
      pageLimit: settings.pageLimit,
      retry: resolveRetryConfig(config.retry),
      scheduler,
      onStatus,
      answer: (plan) => ({ elements: source.completions(plan.request, { endpoint, ...plan.options, transport: plan.transport === 'websocket' ? 'websocket' : 'list' }), bounds: () => undefined }),
      elements: completionOffsets,
      checksElementOrder: source.checksElementOrder,
    },
  );
}
