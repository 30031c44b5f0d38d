import { BehaviorSubject, type Observable } from 'rxjs';

/**
 * The values of a read as an async iterable of chunks of up to `size`, for a consumer that pulls at its own
 * pace (a database transaction): `read` is subscribed on the first pull and given a `paused` flag, which
 * turns `true` when `2 × size` values wait (the read then stops reading its socket or asking for pages) and
 * `false` again once fewer than `size` wait, so memory stays within a few chunks (plus what the read had in
 * flight) however slow the consumer is.
 *
 * Yields full chunks, then the rest after the read completed; ends when the read completed and everything
 * was yielded. Throws the read's error as soon as it comes (what waits is dropped), and `signal`'s reason as
 * soon as it aborts. Leaving the loop early (or a throw) unsubscribes from the read.
 */
export function pullChunks<T>(read: (paused: Observable<boolean>) => Observable<T>, size: number, signal?: AbortSignal): AsyncIterable<readonly T[]> {
  if (!Number.isSafeInteger(size) || size < 1) throw new RangeError(`size must be an integer >= 1, got ${size}`);
  async function* chunks(): AsyncGenerator<readonly T[], void, undefined> {
    const paused = new BehaviorSubject(false);
    let waiting: T[] = [];
    let completed = false;
    let failure: { readonly error: unknown } | undefined;
    let wake: (() => void) | undefined;
    const notify = (): void => {
      const resolve = wake;
      wake = undefined;
      resolve?.();
    };
    const onAbort = (): void => {
      failure ??= { error: signal?.reason };
      notify();
    };
    signal?.addEventListener('abort', onAbort);
    const subscription = read(paused).subscribe({
      next: (value) => {
        waiting.push(value);
        if (waiting.length >= 2 * size && !paused.value) paused.next(true);
        if (waiting.length >= size) notify();
      },
      error: (error: unknown) => {
        failure ??= { error };
        notify();
      },
      complete: () => {
        completed = true;
        notify();
      },
    });
    try {
      for (;;) {
        if (signal?.aborted) throw signal.reason;
        if (failure) throw failure.error;
        if (waiting.length >= size || (completed && waiting.length > 0)) {
          const chunk = waiting.length <= size ? waiting : waiting.slice(0, size);
          waiting = waiting.length <= size ? [] : waiting.slice(size);
          if (paused.value && waiting.length < size) paused.next(false);
          yield chunk;
          continue;
        }
        if (completed) return;
        await new Promise<void>((resolve) => (wake = resolve));
      }
    } finally {
      signal?.removeEventListener('abort', onAbort);
      subscription.unsubscribe();
    }
  }
  return { [Symbol.asyncIterator]: chunks };
}
