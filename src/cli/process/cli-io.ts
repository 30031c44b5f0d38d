import type { Writable } from 'node:stream';
import type { Logger } from '../log/logger.js';

/** The signals a command reacts to. */
export type StopSignal = 'SIGINT' | 'SIGTERM';

/**
 * Where a command subscribes to signals: the stop signals, and `SIGHUP` (a running `ingest` looks for a scope change).
 * `process` satisfies it; tests pass an `EventEmitter`.
 */
export interface SignalSource {
  on(signal: StopSignal | 'SIGHUP', listener: () => void): unknown;
  off(signal: StopSignal | 'SIGHUP', listener: () => void): unknown;
}

/**
 * The outside world of a command, injected so the command runs in tests without a process: data goes to
 * `stdout`, human text (errors, progress, stats) to `stderr`, logs to `logger` (default: JSON lines on
 * `stderr`); `signals` delivers SIGINT/SIGTERM.
 */
export interface CliIo {
  readonly stdout: Writable;
  readonly stderr: Writable;
  /** Whether stderr is a terminal (enables the live progress line). */
  readonly stderrIsTTY: boolean;
  /** Whether stdout is a terminal (then `tail` shows its human view by default). */
  readonly stdoutIsTTY?: boolean;
  /** The width of the terminal on stdout / stderr, read when needed (it changes when the window does). */
  readonly stdoutColumns?: () => number | undefined;
  readonly stderrColumns?: () => number | undefined;
  /** The height of stderr's terminal, when it is one: the status line gets the bottom row of its own. */
  readonly stderrRows?: () => number | undefined;
  /** Whether the human view may colour stdout / stderr (see `colorSupport`). Default false. */
  readonly stdoutColors?: boolean;
  readonly stderrColors?: boolean;
  readonly signals: SignalSource;
  /** A logger to use instead of the default JSON-lines logger on stderr. */
  readonly logger?: Logger;
  /** Environment variables (`LEDGER_RX_TOKEN`, ...). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Called at a second SIGINT/SIGTERM: leave at once (the process exits with 130). Default: nothing. */
  readonly forceExit?: () => void;
}
