import { setImmediate as nextTurn } from 'node:timers/promises';
import { createProgram } from '../../../src/cli/create-program.js';
import type { CliContext } from '../../../src/cli/process/cli-context.js';
import { processIoWithLogger } from '../../../src/cli/process/process-io-with-logger.js';
import type { StopSignal } from '../../../src/cli/process/cli-io.js';
import { captureIo, type CapturedIo } from './capture-io.js';

/** What ended a run before any command ran (help, usage error): thrown by the test's `exit`. */
class CliExit extends Error {
  constructor(readonly code: number) {
    super(`exit ${code}`);
  }
}

/** The outcome of {@link runInProcess}: the exit code and what the run wrote (as {@link runCli} gives a process's). */
export interface InProcessResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** A command running in process ({@link startInProcess}). */
export interface InProcessCli {
  readonly io: CapturedIo;
  /** What the run wrote so far. */
  stdout(): string;
  stderr(): string;
  /** Delivers SIGINT/SIGTERM to the command, as the process's signal would. */
  signal(s: StopSignal): void;
  /** Resolves with the exit code once the command is done. */
  readonly exited: Promise<number>;
}

/**
 * Runs `ledger-rx ...args` in this process: the program of `createProgram` (the same commander layer, flags,
 * defaults and exit-code conventions as `dist/cli/main.js`) with captured stdout/stderr, signals from the test,
 * and the environment of a spawned CLI (this process's, plus `env`).
 */
export function startInProcess(args: readonly string[], options: { env?: Record<string, string> } = {}): InProcessCli {
  const io = captureIo({ env: { ...(process.env as Record<string, string>), ...options.env } });
  let code: number | undefined;
  const context: CliContext = {
    io: (values) => processIoWithLogger(values, io),
    stdout: io.stdout,
    stderr: io.stderr,
    exit: (c) => {
      throw new CliExit(c);
    },
    done: (c) => {
      code = c;
    },
  };
  const exited = createProgram(context)
    .parseAsync([...args], { from: 'user' })
    .then(
      () => code ?? 0,
      (error: unknown) => {
        if (error instanceof CliExit) return error.code;
        throw error;
      },
    )
    .then(async (c) => {
      await nextTurn(); // the captured streams deliver their last chunk
      return c;
    });
  return { io, stdout: io.out, stderr: io.err, signal: io.signal, exited };
}

/** Runs `ledger-rx ...args` in this process to its end (see {@link startInProcess}). */
export async function runInProcess(args: readonly string[], options: { env?: Record<string, string> } = {}): Promise<InProcessResult> {
  const cli = startInProcess(args, options);
  const code = await cli.exited;
  return { code, stdout: cli.stdout(), stderr: cli.stderr() };
}
