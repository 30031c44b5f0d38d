import { Observable } from 'rxjs';

/**
 * Wraps one abortable async operation as a cold Observable: each subscription calls `run` with a fresh
 * `AbortSignal`, emits the resolved value and completes, or errors with the rejection. Unsubscribing
 * before it settles aborts the signal (and so the HTTP request); a late settlement is then ignored.
 *
 * @param run - starts the operation; must honour the signal.
 */
export function fromAbortable<T>(run: (signal: AbortSignal) => Promise<T>): Observable<T> {
  return new Observable<T>((subscriber) => {
    const controller = new AbortController();
    run(controller.signal).then(
      (value) => {
        subscriber.next(value);
        subscriber.complete();
      },
      (error: unknown) => subscriber.error(error),
    );
    return () => controller.abort(new Error('unsubscribed'));
  });
}
