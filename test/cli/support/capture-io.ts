import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import type { CliIo, StopSignal } from '../../../src/cli/process/cli-io.js';

/** A {@link CliIo} for in-process command tests: captured stdout/stderr and an emitter for signals. */
export interface CapturedIo extends CliIo {
  readonly out: () => string;
  readonly err: () => string;
  /** Delivers a signal to the command. */
  signal(s: StopSignal | 'SIGHUP'): void;
}

/** Creates a {@link CapturedIo}; `stderrIsTTY` defaults to false. */
export function captureIo(options: { stderrIsTTY?: boolean; env?: Record<string, string> } = {}): CapturedIo {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  const signals = new EventEmitter();
  return {
    stdout,
    stderr,
    stderrIsTTY: options.stderrIsTTY ?? false,
    signals,
    env: options.env ?? {},
    out: () => out,
    err: () => err,
    signal: (s) => signals.emit(s),
  };
}
