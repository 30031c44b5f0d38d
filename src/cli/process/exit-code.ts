/**
 * The exit codes of every `ledger-rx` command:
 * - `OK` (0): done (also after SIGINT/SIGTERM, once the output and the checkpoint are flushed);
 * - `ERROR` (1): a local failure — file, lock, database (an unreadable token file, an output that cannot
 *   be written, the ingest stream lock held by another process, PostgreSQL unreachable, a checkpoint store
 *   failure) —, an operator command's single request that could not reach the participant (`tail` and
 *   `ingest` retry, also at start-up, and exit 4 instead), a bug;
 * - `USAGE` (2): bad usage (unknown flag, invalid value, contradictory filter, missing subcommand, a
 *   `--from` after the ledger end, a `--checkpoint` file that could not be saved) — no update was read;
 * - `SERVER` (3): the server rejected the request and retrying cannot help (pruned offset, permission,
 *   invalid argument, protocol violation);
 * - `RETRIES_EXHAUSTED` (4): a retryable failure persisted past the retry budget, or the participant could not
 *   be reached at start-up (refused connections or an unknown host for a few seconds, without
 *   `--wait-for-participant`);
 * - `COMMAND_FAILED` (5): `submit --wait`: the participant accepted the command, then it failed (its
 *   completion's status is printed);
 * - `OUTCOME_UNKNOWN` (6): `submit --wait`: no completion within `--timeout`; the command may still commit.
 *
 * A second SIGINT/SIGTERM exits at once with 130 (`processIo().forceExit`), outside this table of results.
 */
export const ExitCode = {
  OK: 0,
  ERROR: 1,
  USAGE: 2,
  SERVER: 3,
  RETRIES_EXHAUSTED: 4,
  COMMAND_FAILED: 5,
  OUTCOME_UNKNOWN: 6,
} as const;

/** One of the values of {@link ExitCode}. */
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];
