/** The levels of the JSON logger, least to most severe; `silent` logs nothing (`--log-level`). */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

/** The accepted values of `--log-level`, in order of severity. */
export const logLevels: readonly LogLevel[] = ['debug', 'info', 'warn', 'error', 'silent'];
