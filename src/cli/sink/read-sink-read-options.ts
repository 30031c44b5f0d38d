import { flagValues } from '../options/flag-values.js';
import { logLevels, type LogLevel } from '../log/log-level.js';
import { readMonitoringOptions } from '../monitoring/read-monitoring-options.js';
import { parseFromOffset } from '../options/parse-from-offset.js';
import { parseToOffset } from '../options/parse-to-offset.js';
import { readFilterOptions } from '../options/read-filter-options.js';
import { readSourceOptions } from '../options/read-source-options.js';
import type { SinkReadOptions } from './sink-read-options.js';

/**
 * Reads the commander values shared by `ingest` and `publish` (source, filter, range, batching, run flags)
 * into {@link SinkReadOptions}; throws `UsageError` (exit 2) for a malformed value.
 */
export function readSinkReadOptions(values: Readonly<Record<string, unknown>>): SinkReadOptions {
  const { str, int } = flagValues(values);
  const from = str('from');
  const to = str('to');
  const logLevel = str('logLevel');
  return {
    source: readSourceOptions(values),
    filter: readFilterOptions(values),
    from: from === undefined ? undefined : parseFromOffset(from),
    to: to === undefined ? undefined : parseToOffset(to),
    batch: int('batch', '--batch', 1),
    batchMs: int('batchMs', '--batch-ms', 1),
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
