/** What {@link wantsStatusLine} decides on. */
export interface StatusLineFacts {
  /** `--no-progress` (false), or nothing said (undefined). */
  readonly flag: boolean | undefined;
  readonly stderrIsTTY: boolean;
  readonly stdoutIsTTY: boolean;
  /** The data goes to stdout (no `--out`, or `--out -`). */
  readonly toStdout: boolean;
  /** The data is the human view (which keeps the status line below its lines). */
  readonly pretty: boolean;
}

/**
 * Whether `tail` shows its status line on stderr (a pure function): as the flag says; without one, when
 * stderr is a terminal, except when NDJSON goes to that same terminal (its lines would tear through the
 * status line; the human view erases and redraws it around each write instead).
 */
export function wantsStatusLine(f: StatusLineFacts): boolean {
  if (f.flag !== undefined) return f.flag;
  const ndjsonOnTerminal = f.toStdout && f.stdoutIsTTY && !f.pretty;
  return f.stderrIsTTY && !ndjsonOnTerminal;
}
