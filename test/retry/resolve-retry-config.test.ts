import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../src/errors/index.js';
import { resolveRetryConfig, type RetryConfig } from '../../src/retry/index.js';

describe('resolveRetryConfig', () => {
  it('applies the defaults, keeps what is given, and turns false into no retries', () => {
    expect(resolveRetryConfig(undefined)).toMatchObject({ maxAttempts: 10, initialDelayMs: 200, maxDelayMs: 30_000, factor: 2, jitter: 0.2 });
    expect(resolveRetryConfig({ maxAttempts: 0, initialDelayMs: 5, maxDelayMs: 5, factor: 1, jitter: 0 })).toMatchObject({ maxAttempts: 0, initialDelayMs: 5, maxDelayMs: 5, factor: 1, jitter: 0 });
    expect(resolveRetryConfig(false)).toMatchObject({ maxAttempts: 0 });
  });

  it.each<[RetryConfig, string, RegExp]>([
    [{ maxAttempts: -1 }, 'retry.maxAttempts', /must be >= 0, got -1/],
    [{ maxAttempts: Number.NaN }, 'retry.maxAttempts', /got NaN/],
    [{ initialDelayMs: -5 }, 'retry.initialDelayMs', /must be >= 0/],
    [{ initialDelayMs: 100, maxDelayMs: 50 }, 'retry.maxDelayMs', /must be >= initialDelayMs \(100\), got 50/],
    [{ factor: 0.5 }, 'retry.factor', /must be >= 1/],
    [{ jitter: 1 }, 'retry.jitter', /must be in \[0, 1\)/],
    [{ jitter: -0.1 }, 'retry.jitter', /must be in \[0, 1\)/],
  ])('%j is an InvalidArgumentError naming %s', (config, field, rule) => {
    let error: unknown;
    try {
      resolveRetryConfig(config);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as InvalidArgumentError).field).toBe(field);
    expect((error as InvalidArgumentError).rule).toMatch(rule);
  });
});
