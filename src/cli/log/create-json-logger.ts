import type { LogLevel } from './log-level.js';
import type { Logger } from './logger.js';

const rank: Readonly<Record<LogLevel, number>> = { debug: 20, info: 30, warn: 40, error: 50, silent: 100 };
const secretKey = /token|authorization|password|secret/i;

/** Options of {@link createJsonLogger}. */
export interface JsonLoggerOptions {
  /** The least severe level written. Default `info`. */
  readonly level?: LogLevel;
  /** Where each line goes (a complete line, with its `\n`). */
  readonly write: (line: string) => void;
  /** The clock, for `time` (ms since the epoch). Default `Date.now`. */
  readonly now?: () => number;
}

function toJsonValue(value: unknown): unknown {
  if (value instanceof Error) {
    const code = (value as { code?: unknown }).code;
    return { type: value.name, message: value.message, ...(typeof code === 'string' ? { code } : {}) };
  }
  return value;
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
    for (const [key, value] of Object.entries(obj)) {
      if (key === 'level' || key === 'time' || key === 'msg') continue;
      record[key] = secretKey.test(key) ? '[redacted]' : toJsonValue(value);
    }
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
