/** The exit-code section appended to every command's `--help` (the contract of {@link ExitCode}). */
export const exitCodesHelp = `
Exit codes:
  0    done (also after SIGINT/SIGTERM: the element in hand is finished, the output and the checkpoint
       are flushed first)
  1    local failure (file, lock, database): an unreadable --token-file, an --out that cannot be
       written, the stream lock held by another ingester, PostgreSQL unreachable, a checkpoint store
       failure; also vetting/users/submit (one request, not retried) when the participant is unreachable
  2    bad usage (unknown flag, invalid value, contradictory filter, missing subcommand, --from after
       the ledger end, a --checkpoint that could not be saved)
  3    server error that cannot be retried (pruned offset: the earliest available offset is printed;
       permission denied; invalid request)
  4    retries exhausted (the participant stayed unreachable or overloaded), or no participant at --url
       at start-up (connection refused or host not found for 5 s; --wait-for-participant waits)
  5    submit --wait: the command was accepted, then failed (its completion's status is printed)
  6    submit --wait: no completion within --timeout: the outcome is unknown, the command may still
       commit (submit it again with the same commandId to find out: a duplicate is rejected)
  130  a second SIGINT/SIGTERM: exit at once, without flushing`;
