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

/** An error as people read it: `CODE: message` (the message alone when it has no code), on one line. */
function errorText(error: Error): string {
  const code = (error as { code?: unknown }).code;
  const message = error.message.replace(/\s*\n\s*/g, ' ');
  return typeof code === 'string' && !message.startsWith(code) ? `${code}: ${message}` : message;
}

/**
 * A logger for people at a terminal (`tail`'s human view): one line per call,
 * `HH:MM:SS info  the message  key=value …  CODE: error message` (local time of day, the level coloured,
 * fields muted, an `Error` field as its text at the end, not as JSON), with the same fields and redaction as
 * the JSON logger (see `logFields`). Lines below `level` are dropped. Never throws.
 */
export function createHumanLogger(options: HumanLoggerOptions): Logger {
  const min = rank[options.level ?? 'info'];
  const now = options.now ?? Date.now;
  const method = (level: Exclude<LogLevel, 'silent'>) => (obj: Readonly<Record<string, unknown>>, msg?: string) => {
    if (rank[level] < min) return;
    const time = new Date(now()).toTimeString().slice(0, 8);
    const errors = Object.entries(obj).flatMap(([k, v]) => (v instanceof Error ? [k] : []));
    const fields = logFields(obj)
      .filter(([k]) => !errors.includes(k))
      .map(([k, v]) => `${k}=${fieldText(v)}`);
    const parts = [options.paint('time', time), options.paint(level, level.padEnd(5)), msg ?? ''];
    if (fields.length > 0) parts.push(options.paint('muted', fields.join(' ')));
    for (const k of errors) parts.push(`${options.paint('muted', '—')} ${errorText(obj[k] as Error)}`);
    options.write(`${parts.join(' ')}\n`);
  };
  return { debug: method('debug'), info: method('info'), warn: method('warn'), error: method('error') };
}
