import { LedgerRxError } from '../errors/ledger-rx-error.js';
import { LedgerApiError } from '../errors/ledger-api-error.js';

/** How a paged read retries. All times in milliseconds. */
export interface RetryConfig {
  /** Attempts after a failure before giving up with `RETRIES_EXHAUSTED`. Resets after a successful page. Default 10. */
  readonly maxAttempts?: number;
  /** Delay before the first retry. Default 200. */
  readonly initialDelayMs?: number;
  /** Largest delay. Default 30 000. */
  readonly maxDelayMs?: number;
  /** Growth factor of the delay per attempt. Default 2. */
  readonly factor?: number;
  /** Random spread of each delay, as a fraction (0.2 = ±20 %). Default 0.2. */
  readonly jitter?: number;
  /** Source of randomness for the jitter, in [0, 1). Default `Math.random`. */
  readonly random?: () => number;
}

/** {@link RetryConfig} with defaults applied. */
export type ResolvedRetryConfig = Required<RetryConfig>;

/** Applies the defaults of {@link RetryConfig}; `false` disables retries. */
export function resolveRetryConfig(config: RetryConfig | false | undefined): ResolvedRetryConfig {
  if (config === false) return { maxAttempts: 0, initialDelayMs: 0, maxDelayMs: 0, factor: 1, jitter: 0, random: Math.random };
  const r = {
    maxAttempts: config?.maxAttempts ?? 10,
    initialDelayMs: config?.initialDelayMs ?? 200,
    maxDelayMs: config?.maxDelayMs ?? 30_000,
    factor: config?.factor ?? 2,
    jitter: config?.jitter ?? 0.2,
    random: config?.random ?? Math.random,
  };
  if (!(r.maxAttempts >= 0)) throw new RangeError(`retry.maxAttempts must be >= 0, got ${r.maxAttempts}`);
  if (!(r.initialDelayMs >= 0) || !(r.maxDelayMs >= r.initialDelayMs)) throw new RangeError('retry delays must satisfy 0 <= initialDelayMs <= maxDelayMs');
  if (!(r.factor >= 1)) throw new RangeError(`retry.factor must be >= 1, got ${r.factor}`);
  if (!(r.jitter >= 0 && r.jitter < 1)) throw new RangeError(`retry.jitter must be in [0, 1), got ${r.jitter}`);
  return r;
}

/** True when the server said the list is larger than its cap (`413`): lower the limit and ask again. */
export function isListTooLarge(error: unknown): boolean {
  return error instanceof LedgerApiError && (error.status === 413 || error.code === 'JSON_API_MAXIMUM_LIST_ELEMENTS_NUMBER_REACHED');
}

/**
 * The server's list cap stated by a 413 (`… is greater than the node limit (<N>).`), when the error is one
 * and states it; else `undefined`.
 */
export function statedListCap(error: unknown): number | undefined {
  if (!isListTooLarge(error)) return undefined;
  const match = /node limit \((\d+)\)/.exec((error as LedgerApiError).cantonCause);
  const cap = match ? Number(match[1]) : NaN;
  return Number.isSafeInteger(cap) && cap >= 1 ? cap : undefined;
}

/**
 * The retry decision, as a pure function: the delay before attempt `attempt` (1-based), or `'stop'`.
 * Retries only errors marked `retryable` (transport failures, 429/503/504, categories with `retryInfo`).
 * The delay grows exponentially from `initialDelayMs`, is capped at `maxDelayMs`, spread by `jitter`, and is
 * never shorter than what the server asked for (`retryInfo` / `Retry-After`), even beyond `maxDelayMs`.
 */
export function retryDelay(error: unknown, attempt: number, config: ResolvedRetryConfig): number | 'stop' {
  if (!(error instanceof LedgerRxError) || !error.retryable) return 'stop';
  if (attempt > config.maxAttempts) return 'stop';
  const base = Math.min(config.maxDelayMs, config.initialDelayMs * config.factor ** (attempt - 1));
  const spread = base * config.jitter * (2 * config.random() - 1);
  const serverAsked = error instanceof LedgerApiError ? (error.retryAfterMs ?? 0) : 0;
  return Math.round(Math.max(serverAsked, Math.min(config.maxDelayMs, base + spread)));
}
