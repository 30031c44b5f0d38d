/** The exit-code section appended to every command's `--help` (the contract of {@link ExitCode}). */
export const exitCodesHelp = `
Exit codes:
  0  done (also after SIGINT/SIGTERM: the output and the checkpoint are flushed first)
  1  error (local I/O, checkpoint store, a one-shot request that could not reach the participant)
  2  bad usage (unknown flag, invalid value, contradictory filter)
  3  server error that cannot be retried (pruned offset: the earliest available offset is printed;
     permission denied; invalid request)
  4  retries exhausted (the participant stayed unreachable or overloaded)`;
