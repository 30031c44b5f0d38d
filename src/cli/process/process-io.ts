import type { WriteStream } from 'node:tty';
import { colorSupport } from '../pretty/color-support.js';
import type { CliIo } from './cli-io.js';

function colors(stream: NodeJS.WriteStream): boolean {
  const tty = stream.isTTY === true;
  const hasColors = tty && typeof (stream as WriteStream).hasColors === 'function' ? (stream as WriteStream).hasColors(process.env) : undefined;
  return colorSupport({ isTTY: tty, hasColors, env: process.env });
}

/** The {@link CliIo} of the running process: its stdout, stderr (their terminal widths and colour
 * support), signals and environment; a second stop signal exits at once with 130. */
export function processIo(): CliIo {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stderrIsTTY: process.stderr.isTTY === true,
    stdoutIsTTY: process.stdout.isTTY === true,
    stdoutColumns: () => (process.stdout.isTTY ? process.stdout.columns : undefined),
    stderrColumns: () => (process.stderr.isTTY ? process.stderr.columns : undefined),
    stderrRows: () => (process.stderr.isTTY ? process.stderr.rows : undefined),
    stdoutColors: colors(process.stdout),
    stderrColors: colors(process.stderr),
    signals: process,
    env: process.env,
    forceExit: () => process.exit(130),
  };
}
