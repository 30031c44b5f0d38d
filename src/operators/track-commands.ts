import {
  asyncScheduler,
  catchError,
  concatMap,
  defer,
  EMPTY,
  filter,
  finalize,
  from,
  ignoreElements,
  map,
  merge,
  mergeMap,
  of,
  shareReplay,
  Subject,
  switchMap,
  take,
  tap,
  throwIfEmpty,
  timeout,
  type Observable,
  type OperatorFunction,
  type SchedulerLike,
  type Subscription,
} from 'rxjs';
import { completionMatches, type SubmissionKey } from '../completions/completion-matches.js';
import { completionOf } from '../completions/completion-of.js';
import { completionOffset } from '../completions/completion-offset.js';
import { CommandFailedError } from '../errors/command-failed-error.js';
import { CommandOutcomeUnknownError } from '../errors/command-outcome-unknown-error.js';
import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import { LedgerApiError } from '../errors/ledger-api-error.js';
import type { RetryConfig } from '../retry/retry-config.js';
import type { Completion, CompletionStreamResponse, JsCommands } from '../schemas/index.js';
import type { CommandSource } from './completions-source.js';
import { tailCompletions } from './tail-completions.js';

/** Options of {@link trackCommands} (and `submitAndTrack`). */
export interface TrackCommandsConfig {
  /**
   * How long to wait for a command's completion after submitting it, in ms; then its outcome is `unknown`
   * (`CommandOutcomeUnknownError`). Default 30 000.
   */
  readonly timeoutMs?: number;
  /** Commands submitted and awaited at the same time (`trackCommands`). Default: no limit. */
  readonly concurrency?: number;
  /**
   * The parties whose completions are read. Default: each command's `actAs` (one completion stream per
   * distinct `actAs` set, shared by the commands in flight with it).
   */
  readonly parties?: readonly string[];
  /** The completions endpoint (see `LedgerClient.completions`). Default `command-completions`. */
  readonly endpoint?: 'command-completions' | 'completions';
  /** How completions are read: `websocket` (default) or `list`. */
  readonly transport?: 'websocket' | 'list';
  /** Retry policy of the completion streams (as `tailCompletions`'). */
  readonly retry?: RetryConfig | false;
  /** Scheduler of the timeouts and backoff timers. Default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike;
  /** The submission id of a command that has none. Default `crypto.randomUUID()`. */
  readonly newSubmissionId?: () => string;
}

/** The outcome of one tracked command, with the commands as submitted (their `submissionId` filled in). */
export type CommandOutcome =
  | {
      /** The command committed: its transaction (or reassignment) is `updateId`, its completion at `completionOffset`. */
      readonly outcome: 'committed';
      readonly commands: JsCommands;
      readonly updateId: string;
      readonly completionOffset: number;
      readonly completion: Completion;
    }
  | {
      /**
       * The command failed: a completion with a non-zero status (`CommandFailedError`), or a submission the
       * participant refused outright (its `LedgerApiError`, 4xx: invalid, unauthorized, overloaded).
       */
      readonly outcome: 'failed';
      readonly commands: JsCommands;
      readonly error: CommandFailedError | LedgerApiError;
    }
  | {
      /** No completion within `timeoutMs` (or the completion stream failed): it may still commit. */
      readonly outcome: 'unknown';
      readonly commands: JsCommands;
      readonly error: CommandOutcomeUnknownError;
    };

/** The completion stream of one party set, started at the ledger end it looked up first. */
interface PartyTail {
  /** Emits (and replays) the offset the stream starts after, once known. */
  readonly begin: Observable<number>;
  /** The stream's elements, hot. */
  readonly elements: Subject<CompletionStreamResponse>;
  readonly subscription: Subscription;
}

/** A submission the participant refused outright: nothing was accepted, so no completion will come. */
function definiteRefusal(error: unknown): error is LedgerApiError {
  return error instanceof LedgerApiError && error.status >= 400 && error.status < 500 && error.status !== 408;
}

function checkConfig(c: TrackCommandsConfig): void {
  if (c.timeoutMs !== undefined && (!Number.isSafeInteger(c.timeoutMs) || c.timeoutMs < 1)) throw new InvalidArgumentError('timeoutMs', 'must be an integer >= 1');
  if (c.concurrency !== undefined && !(c.concurrency === Infinity || (Number.isSafeInteger(c.concurrency) && c.concurrency >= 1))) {
    throw new InvalidArgumentError('concurrency', 'must be an integer >= 1 (or Infinity)');
  }
  if (c.parties !== undefined && c.parties.length === 0) throw new InvalidArgumentError('parties', 'must name at least one party');
}

/**
 * Submits each `JsCommands` that arrives (`POST /v2/commands/async/submit`) and emits its outcome once its
 * completion arrived: `committed`, `failed` or `unknown` (see {@link CommandOutcome}), in the order outcomes
 * are known.
 *
 * No race between submitting and listening: for each party set the completion stream starts after the ledger
 * end read BEFORE the first submission, and a command is submitted only once its stream is subscribed, so its
 * completion cannot pass unseen. A completion is matched by change id (user, `actAs` as a set, command id) and
 * submission id, which is generated when the command has none. A submission whose answer is lost (a
 * transport error, a 5xx, a timeout) may still have been accepted, so its completion is awaited all the
 * same; one the participant refused (4xx) fails at once. The completion streams resume after failures like
 * `tailCompletions`; one that fails for good makes the outcomes of the commands awaiting it `unknown`.
 *
 * Completes when the input completed and every outcome was emitted; never errors for a command's sake
 * (outcomes are values); invalid options throw `InvalidArgumentError` at the call. Unsubscribing stops the
 * completion streams (commands already submitted run on at the participant). Pure RxJS: the time out and
 * backoff run on `scheduler`.
 */
export function trackCommands(source: CommandSource, config: TrackCommandsConfig = {}): OperatorFunction<JsCommands, CommandOutcome> {
  checkConfig(config);
  const timeoutMs = config.timeoutMs ?? 30_000;
  const scheduler = config.scheduler ?? asyncScheduler;
  const newSubmissionId = config.newSubmissionId ?? (() => globalThis.crypto.randomUUID());

  return (commands$) =>
    defer(() => {
      const tails = new Map<string, PartyTail>();

      const tailFor = (parties: readonly string[]): PartyTail => {
        const sorted = [...new Set(parties)].sort();
        const key = sorted.join('\n');
        const existing = tails.get(key);
        if (existing !== undefined) return existing;
        const elements = new Subject<CompletionStreamResponse>();
        const begin = from(source.ledgerEnd()).pipe(
          map((end) => end.offset ?? 0),
          shareReplay(1),
        );
        const subscription = begin
          .pipe(
            concatMap((offset) =>
              tailCompletions(source, {
                parties: sorted,
                beginExclusive: offset,
                scheduler,
                ...(config.endpoint === undefined ? {} : { endpoint: config.endpoint }),
                ...(config.transport === undefined ? {} : { transport: config.transport }),
                ...(config.retry === undefined ? {} : { retry: config.retry }),
              }),
            ),
            // A stream that failed for good is forgotten: the next command of these parties starts a new one.
            tap({ error: () => tails.delete(key) }),
          )
          .subscribe(elements);
        const tail = { begin, elements, subscription };
        tails.set(key, tail);
        return tail;
      };

      const track = (commands: JsCommands): Observable<CommandOutcome> =>
        defer(() => {
          const submitted: JsCommands = { ...commands, submissionId: commands.submissionId ?? newSubmissionId() };
          const key: SubmissionKey = {
            userId: submitted.userId ?? undefined,
            actAs: submitted.actAs,
            commandId: submitted.commandId,
            submissionId: submitted.submissionId as string,
          };
          const tail = tailFor(config.parties ?? submitted.actAs);
          let beginExclusive = -1;
          let submitError: unknown;
          const unknownOutcome = (cause: unknown): CommandOutcome => ({
            outcome: 'unknown',
            commands: submitted,
            error: new CommandOutcomeUnknownError({
              commandId: key.commandId,
              submissionId: key.submissionId,
              actAs: key.actAs,
              userId: key.userId,
              timeoutMs,
              beginExclusive,
              ...(cause === undefined ? {} : { cause }),
            }),
          });
          return tail.begin.pipe(
            take(1),
            switchMap((offset) => {
              beginExclusive = offset;
              // Subscribed first, so the completion of the submission below cannot pass unseen.
              const completion = tail.elements.pipe(
                map((element) => ({ element, completion: completionOf(element) })),
                filter((c): c is { element: CompletionStreamResponse; completion: Completion } => c.completion !== undefined && completionMatches(c.completion, key)),
                map(({ element, completion }): CommandOutcome => {
                  const at = completionOffset(element) ?? completion.offset;
                  const status = completion.status;
                  if (status == null || status.code === 0) {
                    return { outcome: 'committed', commands: submitted, updateId: completion.updateId ?? '', completionOffset: at, completion };
                  }
                  const error = new CommandFailedError({
                    commandId: key.commandId,
                    submissionId: key.submissionId,
                    status: { code: status.code, message: status.message, details: status.details ?? [] },
                    completionOffset: at,
                    completion,
                  });
                  return { outcome: 'failed', commands: submitted, error };
                }),
              );
              const submission = defer(() => from(source.submit(submitted))).pipe(
                ignoreElements(),
                catchError((error: unknown) => {
                  if (definiteRefusal(error)) return of<CommandOutcome>({ outcome: 'failed', commands: submitted, error });
                  submitError = error;
                  return EMPTY;
                }),
              );
              return merge(completion, submission).pipe(
                take(1),
                throwIfEmpty(() => new Error('the completion stream ended')),
                timeout({ first: timeoutMs, scheduler, with: () => of(unknownOutcome(submitError)) }),
              );
            }),
            catchError((error: unknown) => of(unknownOutcome(error))),
          );
        });

      return commands$.pipe(
        mergeMap(track, config.concurrency ?? Infinity),
        finalize(() => {
          for (const tail of tails.values()) tail.subscription.unsubscribe();
          tails.clear();
        }),
      );
    });
}
