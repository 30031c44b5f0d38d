import { createRequire } from 'node:module';
import { isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { LogLevel } from './log-level.js';
import type { Logger } from './logger.js';
import { UsageError } from '../options/usage-error.js';

const methods = ['debug', 'info', 'warn', 'error'] as const;

function isLogger(value: unknown): value is Logger {
  return typeof value === 'object' && value !== null && methods.every((m) => typeof (value as Record<string, unknown>)[m] === 'function');
}

/** The URL to import for `specifier`: a path (relative to `cwd`) or a package name resolved from `cwd`. */
function moduleUrl(specifier: string, cwd: string): string {
  if (specifier.startsWith('.') || isAbsolute(specifier)) return pathToFileURL(resolve(cwd, specifier)).href;
  const required = createRequire(join(cwd, 'noop.js')).resolve(specifier);
  return pathToFileURL(required).href;
}

/**
 * Loads the logger of `--logger MODULE`: an ES module (a path, relative to `cwd`, or a package name
 * resolved from `cwd`) that exports either `logger` — an object with pino's `debug`, `info`, `warn` and
 * `error` methods, called as `logger.info(obj, msg)` — or `createLogger({ level })` returning one (or a
 * Promise of one); `level` is the `--log-level` value. A pino instance is such a logger. Resolves with the
 * logger; rejects with a `UsageError` (exit 2) when the module cannot be loaded or exports no logger.
 */
export async function loadLoggerModule(specifier: string, level: LogLevel, cwd: string = process.cwd()): Promise<Logger> {
  let mod: Record<string, unknown>;
  try {
    mod = (await import(moduleUrl(specifier, cwd))) as Record<string, unknown>;
  } catch (error) {
    throw new UsageError(`--logger ${specifier}: cannot load the module (${error instanceof Error ? error.message : String(error)})`);
  }
  const factory = mod['createLogger'];
  const logger: unknown = typeof factory === 'function' ? await (factory as (o: { level: LogLevel }) => unknown)({ level }) : mod['logger'];
  if (!isLogger(logger)) {
    throw new UsageError(`--logger ${specifier}: the module must export \`logger\` or \`createLogger({ level })\`, an object with debug, info, warn and error methods`);
  }
  return logger;
}
