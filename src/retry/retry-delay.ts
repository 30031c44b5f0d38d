import { LedgerApiError } from '../errors/ledger-api-error.js';
import { LedgerRxError } from '../errors/ledger-rx-error.js';
import type { ResolvedRetryConfig } from './retry-config.js';

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
