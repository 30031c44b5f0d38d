import type { DecodedJsCommands } from '../decode/decode-js-commands.js';
import type { ParticipantState } from '../participant/participant-state.js';
import { acceptCommands, type SubmitOptions } from './accept-commands.js';
import { commitCommands, type SubmitResult } from './commit-commands.js';

/**
 * `POST /v2/commands/async/submit`: {@link acceptCommands} (whose errors are the answer), then the outcome
 * ({@link commitCommands}) — at once, before `{}` is answered, or `submissionDelayMs` later, as on a real
 * participant where the transaction or the rejection shows up after the answer.
 */
export async function submitAsync(state: ParticipantState, request: DecodedJsCommands, options: SubmitOptions): Promise<void> {
  const accepted = await acceptCommands(state, request, options);
  const delay = state.options.submissionDelayMs;
  if (delay <= 0) {
    commitCommands(state, accepted);
    return;
  }
  setTimeout(() => commitCommands(state, accepted), delay).unref();
}

/**
 * `Sandbox.submit`: accepts, waits for the outcome (`submissionDelayMs`) and resolves with the committed
 * transaction, or rejects with the `SandboxError` the completion reports (a duplicate, an injected fault,
 * contention); the synchronous errors of {@link acceptCommands} reject as well.
 */
export async function submitCommands(state: ParticipantState, request: DecodedJsCommands, options: SubmitOptions): Promise<SubmitResult> {
  const accepted = await acceptCommands(state, request, options);
  const delay = state.options.submissionDelayMs;
  if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
  const outcome = commitCommands(state, accepted);
  if (outcome.kind === 'rejected') throw outcome.error;
  return outcome.result;
}
