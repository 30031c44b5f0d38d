import type { CliIo } from './cli-io.js';

/** The {@link CliIo} of the running process: its stdout, stderr, signals and environment; a
 * second stop signal exits at once with 130. */
export function processIo(): CliIo {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stderrIsTTY: process.stderr.isTTY === true,
    stdoutIsTTY: process.stdout.isTTY === true,
    signals: process,
    env: process.env,
    forceExit: () => process.exit(130),
  };
}
