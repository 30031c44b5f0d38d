import type { CliContext } from './cli-context.js';
import { processIoWithLogger } from './process-io-with-logger.js';

/**
 * The {@link CliContext} of the running process: its stdout and stderr, `process.exit` for help and usage
 * errors; a done command sets `process.exitCode` and the process exits even if a stray handle lingers (after
 * a short grace period, with an unreferenced timer).
 */
export function processContext(): CliContext {
  return {
    io: processIoWithLogger,
    stdout: process.stdout,
    stderr: process.stderr,
    exit: (code) => process.exit(code),
    done: (code) => {
      process.exitCode = code;
      setTimeout(() => process.exit(code), 2_000).unref();
    },
  };
}
