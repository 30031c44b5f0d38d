import { StopRequested } from './stop-requested.js';

/**
 * Resolves after `ms` milliseconds, or rejects as soon as `signal` aborts (at once when it already has)
 * with the signal's reason when that is an `Error`, else with {@link StopRequested}. The timer is
 * cleared on abort, so an abandoned wait keeps nothing alive.
 */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  const reason = () => (signal?.reason instanceof Error ? signal.reason : new StopRequested());
  if (signal?.aborted) return Promise.reject(reason());
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(reason());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
