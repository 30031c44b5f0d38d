import { logLevels, type LogLevel } from '../log/log-level.js';
import type { MonitoringOptions } from '../monitoring/monitoring-options.js';
import { readMonitoringOptions } from '../monitoring/read-monitoring-options.js';
import type { FilterOptions } from './filter-options.js';
import { flagValues } from './flag-values.js';
import { parseFromOffset, type FromOffset } from './parse-from-offset.js';
import { parseToOffset, type ToOffset } from './parse-to-offset.js';
import { readFilterOptions } from './read-filter-options.js';
import { readSourceOptions } from './read-source-options.js';
import type { SourceOptions } from './source-options.js';

/** The flags every command that reads the update stream shares (`tail`, `ingest`, `publish`). */
export interface StreamFlags {
  readonly source: SourceOptions;
  readonly filter: FilterOptions;
  readonly from: FromOffset | undefined;
  readonly to: ToOffset | undefined;
  readonly pageLimit: number | undefined;
  readonly idleTimeoutMs: number | undefined;
  readonly maxRetries: number | undefined;
  readonly stats: boolean;
  readonly progress: false | undefined;
  readonly validate: boolean;
  readonly logLevel: LogLevel | undefined;
  readonly monitoring: MonitoringOptions;
}

/**
 * Reads the flags shared by the commands that read the update stream (source, filter, range, paging,
 * retries, run and monitoring flags) from commander's values; throws `UsageError` (exit 2) for a malformed
 * value. Each command adds its own flags beside them.
 */
export function readStreamFlags(values: Readonly<Record<string, unknown>>): StreamFlags {
  const { str, int } = flagValues(values);
  const from = str('from');
  const to = str('to');
  const logLevel = str('logLevel');
  return {
    source: readSourceOptions(values),
    filter: readFilterOptions(values),
    from: from === undefined ? undefined : parseFromOffset(from),
    to: to === undefined ? undefined : parseToOffset(to),
    pageLimit: int('pageLimit', '--page-limit', 1),
    idleTimeoutMs: int('idleTimeoutMs', '--idle-timeout-ms', 0),
    maxRetries: int('maxRetries', '--max-retries', 0),
    stats: values['stats'] === true,
    progress: values['progress'] === false ? false : undefined,
    validate: values['validate'] !== false,
    logLevel: logLevels.includes(logLevel as LogLevel) ? (logLevel as LogLevel) : undefined,
    monitoring: readMonitoringOptions(values),
  };
}
