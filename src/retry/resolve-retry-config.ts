import type { ResolvedRetryConfig, RetryConfig } from './retry-config.js';

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
