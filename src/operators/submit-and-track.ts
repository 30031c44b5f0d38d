import { firstValueFrom, of } from 'rxjs';
import type { Completion, JsCommands } from '../schemas/index.js';
import type { CommandSource } from './completions-source.js';
import { trackCommands, type TrackCommandsConfig } from './track-commands.js';

/** What {@link submitAndTrack} resolves with: the committed command's update, and its completion. */
export interface CommandCommitted {
  readonly updateId: string;
  readonly completionOffset: number;
  readonly completion: Completion;
}

/**
 * Submits `commands` (`POST /v2/commands/async/submit`) and awaits its completion: `trackCommands` for one
 * command. The completion stream is subscribed from the ledger end BEFORE the submission, so there is no race;
 * the completion is matched by change id (user, `actAs` as a set, command id) and submission id (generated
 * when `commands` has none).
 *
 * Resolves with `{ updateId, completionOffset, completion }` once the command committed. Rejects with
 * `CommandFailedError` (the completion's status: code, message, details, and the Canton code) when it failed,
 * with the participant's `LedgerApiError` when it refused the submission outright (4xx), and with
 * `CommandOutcomeUnknownError` when no completion came within `timeoutMs` (default 30 000) — the error says
 * how to learn the outcome (the completions after its `beginExclusive`, or a resubmission with the same command
 * id inside the deduplication period). A lost answer to the submission (transport error, 5xx) is not a
 * failure: the completion is awaited all the same. Invalid options throw `InvalidArgumentError` at the call.
 */
export function submitAndTrack(source: CommandSource, commands: JsCommands, config: Omit<TrackCommandsConfig, 'concurrency'> = {}): Promise<CommandCommitted> {
  const outcomes = of(commands).pipe(trackCommands(source, config));
  return firstValueFrom(outcomes).then((result) => {
    if (result.outcome === 'committed') return { updateId: result.updateId, completionOffset: result.completionOffset, completion: result.completion };
    throw result.error;
  });
}
