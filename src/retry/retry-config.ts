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
