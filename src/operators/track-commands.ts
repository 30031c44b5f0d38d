import type { Transport } from '../updates/transport.js';
import { asyncScheduler, defer, finalize, mergeMap, type OperatorFunction, type SchedulerLike } from 'rxjs';
import type { CommandFailedError } from '../errors/command-failed-error.js';
import type { CommandOutcomeUnknownError } from '../errors/command-outcome-unknown-error.js';
import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import type { LedgerApiError } from '../errors/ledger-api-error.js';
import type { LedgerRxError } from '../errors/ledger-rx-error.js';
import type { RetryConfig } from '../retry/retry-config.js';
import type { Completion, JsCommands } from '../schemas/index.js';
import type { CommandSource } from './completions-source.js';
import { completionTails } from './internal/completion-tails.js';
import { trackCommand, type TrackCommandSettings } from './internal/track-command.js';
import { checkInteger } from './internal/check-integer.js';

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
  /** How completions are read: `websocket`, `list`, or `'auto'` (the default: websocket, falling back to list, as `tailCompletions`). */
  readonly transport?: Extract<Transport, 'websocket' | 'list' | 'auto'>;
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
       * The command did not commit: a completion with a non-zero status (`CommandFailedError`), a submission
       * the participant refused outright (its `LedgerApiError`, 4xx: invalid, unauthorized, overloaded), or a
       * failure BEFORE the submission (the ledger end or the completion stream could not be read, e.g. a
       * `TransportError`): nothing was submitted then, and the commands may be submitted again as they are.
       */
      readonly outcome: 'failed';
      readonly commands: JsCommands;
      readonly error: CommandFailedError | LedgerApiError | LedgerRxError;
    }
  | {
      /** No completion within `timeoutMs` (or the completion stream failed): it may still commit. */
      readonly outcome: 'unknown';
      readonly commands: JsCommands;
      readonly error: CommandOutcomeUnknownError;
    };

/**
 * The settings of `trackCommand` from the options of `trackCommands`/`submitAndTrack`, with their defaults
 * (timeout 30 000, `asyncScheduler`, `crypto.randomUUID()`). Throws `InvalidArgumentError` for options they
 * cannot run with.
 */
export function trackCommandsSettings(c: TrackCommandsConfig): TrackCommandSettings {
  checkInteger('timeoutMs', c.timeoutMs, 1);
  if (c.concurrency !== undefined && !(c.concurrency === Infinity || (Number.isSafeInteger(c.concurrency) && c.concurrency >= 1))) {
    throw new InvalidArgumentError('concurrency', 'must be an integer >= 1 (or Infinity)');
  }
  if (c.parties !== undefined && c.parties.length === 0) throw new InvalidArgumentError('parties', 'must name at least one party');
  return { timeoutMs: c.timeoutMs ?? 30_000, scheduler: c.scheduler ?? asyncScheduler, parties: c.parties, newSubmissionId: c.newSubmissionId ?? (() => globalThis.crypto.randomUUID()) };
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
 * `tailCompletions`; one that fails for good makes the outcomes of the commands awaiting it `unknown`, and
 * those it failed before their submission `failed` (not submitted). The streams stay open, one per party set,
 * until the operator completes or is unsubscribed.
 *
 * Completes when the input completed and every outcome was emitted; never errors for a command's sake
 * (outcomes are values); invalid options throw `InvalidArgumentError` at the call. Unsubscribing stops the
 * completion streams (commands already submitted run on at the participant). Pure RxJS: the time out and
 * backoff run on `scheduler`.
 */
export function trackCommands(source: CommandSource, config: TrackCommandsConfig = {}): OperatorFunction<JsCommands, CommandOutcome> {
  const settings = trackCommandsSettings(config);
  return (commands$) =>
    defer(() => {
      // the streams stay open while the operator runs: the next command of the same parties joins at once
      const tails = completionTails(source, { endpoint: config.endpoint, transport: config.transport, retry: config.retry, scheduler: settings.scheduler, lingerMs: Infinity });
      return commands$.pipe(
        mergeMap((commands) => trackCommand(source, tails, commands, settings), config.concurrency ?? Infinity),
        finalize(() => tails.close()),
      );
    });
}
