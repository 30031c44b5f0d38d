import { logLevelRank as rank, type LogLevel } from './log-level.js';
import { logFields } from './log-fields.js';
import type { Logger } from './logger.js';

/** Options of {@link createJsonLogger}. */
export interface JsonLoggerOptions {
  /** The least severe level written. Default `info`. */
  readonly level?: LogLevel;
  /** Where each line goes (a complete line, with its `\n`). */
  readonly write: (line: string) => void;
  /** The clock, for `time` (ms since the epoch). Default `Date.now`. */
  readonly now?: () => number;
}

/**
 * A small JSON-lines logger with pino's line layout: `{"level":30,"time":…,"msg":"…",…fields}` (numeric
 * pino levels, so pino tooling reads it). Fields of `obj` are copied after `msg`; values of keys that look
 * like secrets (`token`, `authorization`, `password`, `secret`) are replaced by `"[redacted]"`, and `Error`
 * values become `{type, message, code}`. Lines below `level` are dropped. Never throws on unserializable
 * input (it falls back to the message alone).
 */
export function createJsonLogger(options: JsonLoggerOptions): Logger {
  const min = rank[options.level ?? 'info'];
  const now = options.now ?? Date.now;
  const method = (level: Exclude<LogLevel, 'silent'>) => (obj: Readonly<Record<string, unknown>>, msg?: string) => {
    if (rank[level] < min) return;
    const record: Record<string, unknown> = { level: rank[level], time: now() };
    if (msg !== undefined) record['msg'] = msg;
    for (const [key, value] of logFields(obj)) record[key] = value;
    let line: string;
    try {
      line = JSON.stringify(record);
    } catch {
      line = JSON.stringify({ level: rank[level], time: record['time'], msg });
    }
    options.write(`${line}\n`);
  };
  return { debug: method('debug'), info: method('info'), warn: method('warn'), error: method('error') };
}
