import { catchError, defer, EMPTY, filter, finalize, from, ignoreElements, map, merge, of, switchMap, take, throwIfEmpty, timeout, type Observable, type SchedulerLike } from 'rxjs';
import { completionMatches, type SubmissionKey } from '../../completions/completion-matches.js';
import { completionOf } from '../../completions/completion-of.js';
import { completionOffset } from '../../completions/completion-offset.js';
import { CommandFailedError } from '../../errors/command-failed-error.js';
import { CommandOutcomeUnknownError } from '../../errors/command-outcome-unknown-error.js';
import { LedgerApiError } from '../../errors/ledger-api-error.js';
import { LedgerRxError } from '../../errors/ledger-rx-error.js';
import type { Completion, CompletionStreamResponse, JsCommands } from '../../schemas/index.js';
import type { CommandSource } from '../completions-source.js';
import type { CommandOutcome } from '../track-commands.js';
import type { CompletionTails } from './completion-tails.js';

/** What {@link trackCommand} needs besides the command. */
export interface TrackCommandSettings {
  readonly timeoutMs: number;
  readonly scheduler: SchedulerLike;
  /** The parties whose completions are read; `undefined`: the command's `actAs`. */
  readonly parties: readonly string[] | undefined;
  readonly newSubmissionId: () => string;
}

/** A submission the participant refused outright: nothing was accepted, so no completion will come. */
function definiteRefusal(error: unknown): error is LedgerApiError {
  return error instanceof LedgerApiError && error.status >= 400 && error.status < 500 && error.status !== 408;
}

/**
 * One command of `trackCommands`/`submitAndTrack`: holds the completion stream of its parties from `tails`
 * (started from the ledger end if none is open), submits once the stream's start offset is known, and emits
 * ONE outcome, then completes (releasing the stream):
 * - `committed`/`failed` from its completion, matched by change id and submission id (generated if absent);
 * - `failed` with the participant's `LedgerApiError` when it refused the submission outright (4xx);
 * - `failed` with the error when nothing was submitted because the ledger end or the completion stream
 *   failed first (a `LedgerRxError`, e.g. `TransportError`): the command may be submitted again as it is;
 * - `unknown` (`CommandOutcomeUnknownError`) when no completion came within `timeoutMs` after the submission
 *   started, or the completion stream failed for good after it: it may still commit.
 * Never errors.
 */
export function trackCommand(source: CommandSource, tails: CompletionTails, commands: JsCommands, settings: TrackCommandSettings): Observable<CommandOutcome> {
  return defer(() => {
    const submitted: JsCommands = { ...commands, submissionId: commands.submissionId ?? settings.newSubmissionId() };
    const key: SubmissionKey = {
      userId: submitted.userId ?? undefined,
      actAs: submitted.actAs,
      commandId: submitted.commandId,
      submissionId: submitted.submissionId as string,
    };
    const tail = tails.acquire(settings.parties ?? submitted.actAs);
    let beginExclusive = -1;
    let sent = false;
    let submitError: unknown;
    const unknownOutcome = (cause: unknown): CommandOutcome => ({
      outcome: 'unknown',
      commands: submitted,
      error: new CommandOutcomeUnknownError({
        commandId: key.commandId,
        submissionId: key.submissionId,
        actAs: key.actAs,
        userId: key.userId,
        timeoutMs: settings.timeoutMs,
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
        const submission = defer(() => {
          sent = true;
          return from(source.submit(submitted));
        }).pipe(
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
          timeout({ first: settings.timeoutMs, scheduler: settings.scheduler, with: () => of(unknownOutcome(submitError)) }),
        );
      }),
      catchError((error: unknown) =>
        // before the submission nothing happened at the participant: the outcome is known (not submitted)
        of(!sent && error instanceof LedgerRxError ? { outcome: 'failed' as const, commands: submitted, error } : unknownOutcome(error)),
      ),
      finalize(() => tail.release()),
    );
  });
}
