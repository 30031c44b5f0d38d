import { flagValues } from '../options/flag-values.js';
import type { LogLevel } from '../log/log-level.js';
import { logLevels } from '../log/log-level.js';
import { readMonitoringOptions } from '../monitoring/read-monitoring-options.js';
import { parseFromOffset } from '../options/parse-from-offset.js';
import { parseToOffset } from '../options/parse-to-offset.js';
import { readFilterOptions } from '../options/read-filter-options.js';
import { readFormatOption } from '../options/read-format-option.js';
import { readSourceOptions } from '../options/read-source-options.js';
import type { TailOptions } from './tail-options.js';

/**
 * Turns the commander values of `ledger-rx tail` into {@link TailOptions}; throws `UsageError` (exit 2) for a
 * malformed value. Cross-flag rules are checked by `runTail`.
 */
export function readTailOptions(values: Readonly<Record<string, unknown>>): TailOptions {
  const { str, int } = flagValues(values);
  const from = str('from');
  const to = str('to');
  const logLevel = str('logLevel');
  return {
    source: readSourceOptions(values),
    filter: readFilterOptions(values),
    from: from === undefined ? undefined : parseFromOffset(from),
    to: to === undefined ? undefined : parseToOffset(to),
    descending: values['descending'] === true,
    limit: int('limit', '--limit', 1),
    pageLimit: int('pageLimit', '--page-limit', 1),
    idleTimeoutMs: int('idleTimeoutMs', '--idle-timeout-ms', 0),
    longPollMs: int('longPollMs', '--long-poll-ms', 1),
    maxRetries: int('maxRetries', '--max-retries', 0),
    checkpointFile: str('checkpoint'),
    checkpointPg: str('checkpointPg'),
    streamName: str('streamName'),
    checkpointEvery: int('checkpointEvery', '--checkpoint-every', 1),
    checkpointEveryMs: int('checkpointEveryMs', '--checkpoint-every-ms', 0),
    format: readFormatOption(values),
    out: str('out'),
    includeCheckpoints: values['checkpoints'] === true,
    stats: values['stats'] === true,
    progress: values['progress'] === false ? false : undefined,
    validate: values['validate'] !== false,
    logLevel: logLevels.includes(logLevel as LogLevel) ? (logLevel as LogLevel) : undefined,
    monitoring: readMonitoringOptions(values),
  };
}
