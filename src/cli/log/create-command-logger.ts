import type { CliIo } from '../process/cli-io.js';
import { createHumanLogger, type HumanLoggerOptions } from './create-human-logger.js';
import { createJsonLogger } from './create-json-logger.js';
import type { LogLevel } from './log-level.js';
import type { Logger } from './logger.js';

/**
 * The logger of a command: `io.logger` when one was injected; else, with `humanPaint` (a command showing
 * its human view) and a terminal on stderr, lines for people (`createHumanLogger`); else a JSON-lines
 * logger. Both write to `io.stderr` at `level`, calling `beforeWrite` first (to erase a progress line).
 */
export function createCommandLogger(
  io: CliIo,
  level: LogLevel | undefined,
  beforeWrite: () => void = () => undefined,
  humanPaint?: HumanLoggerOptions['paint'],
): Logger {
  if (io.logger) return io.logger;
  const write = (line: string) => {
    beforeWrite();
    io.stderr.write(line);
  };
  if (humanPaint && io.stderrIsTTY) return createHumanLogger({ level: level ?? 'info', write, paint: humanPaint });
  return createJsonLogger({ level: level ?? 'info', write });
}
