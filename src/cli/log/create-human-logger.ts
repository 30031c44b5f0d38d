import { logFields } from './log-fields.js';
import { logLevelRank as rank, type LogLevel } from './log-level.js';
import type { Logger } from './logger.js';

/** Options of {@link createHumanLogger}. */
export interface HumanLoggerOptions {
  /** The least severe level written. Default `info`. */
  readonly level?: LogLevel;
  /** Where each line goes (a complete line, with its `\n`). */
  readonly write: (line: string) => void;
  /** Colours a part of the line by its role (`time`, `info`, `warn`, `error`, `debug`, `muted`). */
  readonly paint: (style: 'time' | 'info' | 'warn' | 'error' | 'debug' | 'muted', text: string) => string;
  /** The clock (ms since the epoch). Default `Date.now`. */
  readonly now?: () => number;
}

function fieldText(value: unknown): string {
  if (typeof value === 'string') return /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * A logger for people at a terminal (`tail`'s human view): one line per call,
 * `HH:MM:SS info  the message  key=value …` (local time of day, the level coloured, fields muted), with
 * the same fields and redaction as the JSON logger (see `logFields`). Lines below `level` are dropped.
 * Never throws.
 */
export function createHumanLogger(options: HumanLoggerOptions): Logger {
  const min = rank[options.level ?? 'info'];
  const now = options.now ?? Date.now;
  const method = (level: Exclude<LogLevel, 'silent'>) => (obj: Readonly<Record<string, unknown>>, msg?: string) => {
    if (rank[level] < min) return;
    const time = new Date(now()).toTimeString().slice(0, 8);
    const fields = logFields(obj).map(([k, v]) => `${k}=${fieldText(v)}`);
    const parts = [options.paint('time', time), options.paint(level, level.padEnd(5)), msg ?? ''];
    if (fields.length > 0) parts.push(options.paint('muted', fields.join(' ')));
    options.write(`${parts.join(' ')}\n`);
  };
  return { debug: method('debug'), info: method('info'), warn: method('warn'), error: method('error') };
}
