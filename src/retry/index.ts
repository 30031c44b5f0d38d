export { isListTooLarge } from './is-list-too-large.js';
export { onPageFailure } from './on-page-failure.js';
export type { PageFailureAction, RetryAction } from './on-page-failure.js';
export { resolveRetryConfig } from './resolve-retry-config.js';
export type { ResolvedRetryConfig, RetryConfig } from './retry-config.js';
export { resumesAtOnce } from './resumes-at-once.js';
export { retryDelay } from './retry-delay.js';
export { statedListCap } from './stated-list-cap.js';
