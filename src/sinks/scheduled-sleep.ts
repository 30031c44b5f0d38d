import type { SchedulerLike } from 'rxjs';

/**
 * Resolves after `ms` of `scheduler`'s time (an RxJS scheduler: `asyncScheduler` in production, a virtual
 * time scheduler in tests), or rejects with `signal`'s reason as soon as it aborts (at once when it already
 * has). The scheduled action is cancelled on abort, so an abandoned wait keeps nothing alive.
 */
export function scheduledSleep(scheduler: SchedulerLike, ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => {
      action.unsubscribe();
      reject(signal?.reason);
    };
    const action = scheduler.schedule(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
