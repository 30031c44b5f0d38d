import type { CliIo } from '../process/cli-io.js';
import { createJsonLogger } from './create-json-logger.js';
import type { LogLevel } from './log-level.js';
import type { Logger } from './logger.js';

/**
 * The logger of a command: `io.logger` when one was injected, else a JSON-lines logger at `level` writing
 * to `io.stderr`, calling `beforeWrite` first (to erase a progress line).
 */
export function createCommandLogger(io: CliIo, level: LogLevel | undefined, beforeWrite: () => void = () => undefined): Logger {
  if (io.logger) return io.logger;
  return createJsonLogger({
    level: level ?? 'info',
    write: (line) => {
      beforeWrite();
      io.stderr.write(line);
    },
  });
}
