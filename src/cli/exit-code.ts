/**
 * The exit codes of every `ledger-rx` command:
 * - `OK` (0): done (also after SIGINT/SIGTERM, once the output and the checkpoint are flushed);
 * - `ERROR` (1): anything else (a local I/O failure, a checkpoint store failure, a one-shot request that
 *   could not reach the participant — only the streaming reads retry —, a bug);
 * - `USAGE` (2): bad usage (unknown flag, invalid value, contradictory filter) — nothing was sent;
 * - `SERVER` (3): the server rejected the request and retrying cannot help (pruned offset, permission,
 *   invalid argument, protocol violation);
 * - `RETRIES_EXHAUSTED` (4): a retryable failure persisted past the retry budget.
 */
export const ExitCode = {
  OK: 0,
  ERROR: 1,
  USAGE: 2,
  SERVER: 3,
  RETRIES_EXHAUSTED: 4,
} as const;

/** One of the values of {@link ExitCode}. */
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];
