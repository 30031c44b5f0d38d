import { BehaviorSubject, combineLatest, map, type Observable } from 'rxjs';

/** Elements held before the read is paused, and the level at which it reads again. */
const HIGH_WATER = 128;
const LOW_WATER = 32;

/**
 * A read that takes `paused` (a WebSocket, a walk over pages) as an async iterable: each `for await`
 * subscribes to `open(paused)` once and yields its elements in order. The elements the loop has not taken
 * yet are held; above 128 the read is paused (the socket is not read, no further page is asked for) until
 * fewer than 32 are left, so memory stays bounded by that and one page. `callerPaused`, when given, pauses
 * the read too.
 *
 * The loop ends when the read completes; the read's error is thrown from the loop after the elements before
 * it. Leaving the loop early (`break`, `return`, a throw) unsubscribes (closes the socket, aborts the page).
 */
export function iterateRead<T>(open: (paused: Observable<boolean>) => Observable<T>, callerPaused?: Observable<boolean>): AsyncIterable<T> {
  async function* run(): AsyncGenerator<T, void, undefined> {
    const full = new BehaviorSubject(false);
    const paused = callerPaused === undefined ? full : combineLatest([full, callerPaused]).pipe(map(([a, b]) => a || b));
    const queue: T[] = [];
    let ended: { readonly error?: unknown; readonly failed: boolean } | undefined;
    let wake: (() => void) | undefined;
    const notify = (): void => {
      wake?.();
      wake = undefined;
    };
    const subscription = open(paused).subscribe({
      next: (value) => {
        queue.push(value);
        if (queue.length >= HIGH_WATER && !full.value) full.next(true);
        notify();
      },
      error: (error: unknown) => {
        ended = { error, failed: true };
        notify();
      },
      complete: () => {
        ended = { failed: false };
        notify();
      },
    });
    try {
      for (;;) {
        if (queue.length > 0) {
          const value = queue.shift() as T;
          if (full.value && queue.length < LOW_WATER) full.next(false);
          yield value;
        } else if (ended?.failed) {
          throw ended.error;
        } else if (ended) {
          return;
        } else {
          await new Promise<void>((resolve) => (wake = resolve));
        }
      }
    } finally {
      subscription.unsubscribe();
    }
  }
  return { [Symbol.asyncIterator]: run };
}
