import { EMPTY, Observable, of, repeat, timer, type SchedulerLike } from 'rxjs';

/**
 * Subscribes to `page` again each time it completes, until `finished()` is true after a completion; emits
 * what every page emits; errors with a page's error.
 *
 * A page that completed while it was being subscribed to (a synchronous source) is repeated on `scheduler`,
 * so that an endless read of such a source cannot spin; a page that completed later (an HTTP answer) is
 * repeated at once: on the default asyncScheduler `timer(0)` is a setTimeout that Node clamps to 1 ms, an
 * idle millisecond per page (about a sixth of a catch-up's time, pages of 200 elements). `repeat` rather
 * than recursion, so an endless read does not grow its subscription chain.
 */
export function repeatPages<T>(page: Observable<T>, finished: () => boolean, scheduler: SchedulerLike): Observable<T> {
  let subscribing = false;
  let completedSynchronously = false;
  const watched = new Observable<T>((subscriber) => {
    subscribing = true;
    completedSynchronously = false;
    const subscription = page.subscribe({
      next: (value) => subscriber.next(value),
      error: (e: unknown) => subscriber.error(e),
      complete: () => {
        completedSynchronously = subscribing;
        subscriber.complete();
      },
    });
    subscribing = false;
    return subscription;
  });
  return watched.pipe(repeat({ delay: () => (finished() ? EMPTY : completedSynchronously ? timer(0, scheduler) : of(0)) }));
}
