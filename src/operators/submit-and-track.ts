import { firstValueFrom } from 'rxjs';
import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import type { Completion, JsCommands } from '../schemas/index.js';
import type { CommandSource } from './completions-source.js';
import { sharedCompletionTails } from './internal/shared-completion-tails.js';
import { trackCommand } from './internal/track-command.js';
import { trackCommandsSettings, type TrackCommandsConfig } from './track-commands.js';

/** What {@link submitAndTrack} resolves with: the committed command's update, and its completion. */
export interface CommandCommitted {
  readonly updateId: string;
  readonly completionOffset: number;
  readonly completion: Completion;
}

/** Options of {@link submitAndTrack}: those of `trackCommands` (but `concurrency`), and how long streams are shared. */
export interface SubmitAndTrackConfig extends Omit<TrackCommandsConfig, 'concurrency'> {
  /**
   * How long a completion stream stays open after the last call that used it, in ms, so that the next call
   * for the same parties joins it instead of reading the ledger end and opening another. Default 1 000;
   * `0` closes it as soon as no call needs it (calls in flight at the same time still share it).
   */
  readonly lingerMs?: number;
}

/**
 * Submits `commands` (`POST /v2/commands/async/submit`) and awaits its completion. The completion stream is
 * subscribed from the ledger end BEFORE the submission, so there is no race; the completion is matched by
 * change id (user, `actAs` as a set, command id) and submission id (generated when `commands` has none).
 * Calls on the same client with the same stream options (`endpoint`, `transport`, `retry`, `scheduler`,
 * `lingerMs`) share one completion stream per party set while they are in flight and for `lingerMs` after,
 * so a service submitting many commands opens one stream, not one per command.
 *
 * Resolves with `{ updateId, completionOffset, completion }` once the command committed. Rejects with
 * `CommandFailedError` (the completion's status: code, message, details, and the Canton code) when it failed,
 * with the participant's `LedgerApiError` when it refused the submission outright (4xx), with the error that
 * came first when nothing was submitted (the ledger end or the completion stream could not be read: submit
 * again as it is), and with `CommandOutcomeUnknownError` when no completion came within `timeoutMs` (default
 * 30 000) — the error says how to learn the outcome (the completions after its `beginExclusive`, or a
 * resubmission with the same command id inside the deduplication period). A lost answer to the submission
 * (transport error, 5xx) is not a failure: the completion is awaited all the same. Invalid options throw
 * `InvalidArgumentError` at the call.
 */
export function submitAndTrack(source: CommandSource, commands: JsCommands, config: SubmitAndTrackConfig = {}): Promise<CommandCommitted> {
  const settings = trackCommandsSettings(config);
  const lingerMs = config.lingerMs ?? 1_000;
  if (!(lingerMs === Infinity || (Number.isSafeInteger(lingerMs) && lingerMs >= 0))) throw new InvalidArgumentError('lingerMs', 'must be an integer >= 0');
  const tails = sharedCompletionTails(source, { endpoint: config.endpoint, transport: config.transport, retry: config.retry, scheduler: settings.scheduler, lingerMs });
  return firstValueFrom(trackCommand(source, tails, commands, settings)).then((result) => {
    if (result.outcome === 'committed') return { updateId: result.updateId, completionOffset: result.completionOffset, completion: result.completion };
    throw result.error;
  });
}
