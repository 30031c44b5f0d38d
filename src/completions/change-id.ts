/** The parts of a command submission that identify its change for deduplication. */
export interface ChangeIdParts {
  readonly userId: string;
  readonly actAs: readonly string[];
  readonly commandId: string;
}

/**
 * A stable string key for a submission's change id, for client-side bookkeeping (maps of in-flight or
 * completed commands).
 *
 * The server deduplicates commands by change id = (`userId`, the SET of `actAs` parties, `commandId`):
 * within the deduplication period, a second submission with the same change id is rejected
 * (`DUPLICATE_COMMAND`, or `SUBMISSION_ALREADY_IN_FLIGHT` while the first is pending), whatever its
 * submission id. `actAs` is a set: order and repetitions do not matter, so they do not change the key.
 * The key is JSON (`["alice",["Alice::1","Bob::2"],"cmd-1"]`) and therefore unambiguous for any strings.
 *
 * @returns the key; equal keys ⇔ equal change ids.
 */
export function changeId(parts: ChangeIdParts): string {
  const parties = [...new Set(parts.actAs)].sort();
  return JSON.stringify([parts.userId, parties, parts.commandId]);
}
