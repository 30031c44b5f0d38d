/** The levels of the JSON logger, least to most severe; `silent` logs nothing (`--log-level`). */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

/** The accepted values of `--log-level`, in order of severity. */
export const logLevels: readonly LogLevel[] = ['debug', 'info', 'warn', 'error', 'silent'];

/** The numeric level of each `LogLevel` (pino's numbers: 20 debug … 50 error; `silent` above them all). */
export const logLevelRank: Readonly<Record<LogLevel, number>> = { debug: 20, info: 30, warn: 40, error: 50, silent: 100 };
