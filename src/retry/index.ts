export { isListTooLarge, resolveRetryConfig, retryDelay, statedListCap } from './retry-config.js';
export type { ResolvedRetryConfig, RetryConfig } from './retry-config.js';
