import type { Completion } from '../schemas/index.js';

/** What identifies one submission of a command: its change id (user, the `actAs` set, command id) and its submission id. */
export interface SubmissionKey {
  /** The submitting user; `undefined` when the submission left it to the token (then not compared). */
  readonly userId: string | undefined;
  readonly actAs: readonly string[];
  readonly commandId: string;
  readonly submissionId: string;
}

/**
 * True when `completion` reports the submission `key`: the same change id — user, command id and the same
 * `actAs` SET (order and repetitions do not matter; the participant lists the submitting parties filtered to
 * those the stream asked for, so a stream asked for all of `key.actAs` sees all of them) — and the same
 * submission id. A completion without a submission id matches on the change id alone (a participant that
 * does not report it); a key without a user (the token's user submitted) is not compared on it. Pure.
 */
export function completionMatches(completion: Completion, key: SubmissionKey): boolean {
  if (completion.commandId !== key.commandId) return false;
  if (key.userId !== undefined && completion.userId !== key.userId) return false;
  const submission = completion.submissionId;
  if (submission != null && submission !== '' && submission !== key.submissionId) return false;
  const wanted = new Set(key.actAs);
  const got = new Set(completion.actAs);
  if (got.size !== wanted.size) return false;
  for (const party of got) if (!wanted.has(party)) return false;
  return true;
}
