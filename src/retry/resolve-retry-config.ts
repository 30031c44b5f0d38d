import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import type { ResolvedRetryConfig, RetryConfig } from './retry-config.js';

/**
 * Applies the defaults of {@link RetryConfig}; `false` disables retries (no attempt after a failure).
 *
 * @throws InvalidArgumentError naming the option (`retry.maxAttempts`, `retry.initialDelayMs`,
 *   `retry.maxDelayMs`, `retry.factor`, `retry.jitter`) when it is out of range or not a number, like every
 *   other option of the client and the operators.
 */
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
  const invalid = (name: string, rule: string, value: number) => new InvalidArgumentError(`retry.${name}`, `${rule}, got ${value}`);
  if (!(r.maxAttempts >= 0)) throw invalid('maxAttempts', 'must be >= 0', r.maxAttempts);
  if (!(r.initialDelayMs >= 0)) throw invalid('initialDelayMs', 'must be >= 0', r.initialDelayMs);
  if (!(r.maxDelayMs >= r.initialDelayMs)) throw invalid('maxDelayMs', `must be >= initialDelayMs (${r.initialDelayMs})`, r.maxDelayMs);
  if (!(r.factor >= 1)) throw invalid('factor', 'must be >= 1', r.factor);
  if (!(r.jitter >= 0 && r.jitter < 1)) throw invalid('jitter', 'must be in [0, 1)', r.jitter);
  return r;
}
