import type { CliIo } from './cli-io.js';
import { loadLoggerModule } from '../log/load-logger-module.js';
import type { LogLevel } from '../log/log-level.js';
import { processIo } from './process-io.js';

/**
 * `io` (the process's by default) with the logger of `--logger MODULE` when the option is set (see
 * `loadLoggerModule`; a module that cannot be loaded is a `UsageError`), else the default JSON-lines logger.
 */
export async function processIoWithLogger(values: Readonly<Record<string, unknown>>, io: CliIo = processIo()): Promise<CliIo> {
  const specifier = values['logger'];
  if (typeof specifier !== 'string') return io;
  const level = (typeof values['logLevel'] === 'string' ? values['logLevel'] : 'info') as LogLevel;
  return { ...io, logger: await loadLoggerModule(specifier, level) };
}
