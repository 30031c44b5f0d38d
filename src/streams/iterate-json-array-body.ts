import { bodyReadError } from './body-read-error.js';
import { chunkBytes } from './chunk-bytes.js';
import { isNodeReadable } from './is-node-readable.js';
import type { JsonArrayBody } from './json-array-body.js';
import type { JsonArrayBodyOptions } from './json-array-body-options.js';
import { JsonArrayScanner } from './json-array-scanner.js';

/**
 * The elements of the JSON array in a response body, as an async iterator, for callers without RxJS;
 * parsed incrementally like {@link observeJsonArrayBody} and decoded with `decode(value, index)`.
 *
 * Pull-based: the next chunk of the body is read only when the consumer asks for an element that has not
 * been parsed yet. The iterator is done when the array is closed and the body has ended. `next()` rejects
 * with the same errors as `observeJsonArrayBody` emits (elements that precede a malformed one, or one that
 * `decode` rejects, are yielded first).
 *
 * `return()` (leaving a `for await` loop with `break`, `return` or a throw) and any error destroy the body
 * (`return()` on its async iterator, which destroys a `Readable`); then, in every case including completion,
 * `onTeardown` is called once. Nothing is read before the first `next()`.
 */
export function iterateJsonArrayBody<T>(
  body: JsonArrayBody,
  decode: (value: unknown, index: number, text: string | undefined) => T,
  options: JsonArrayBodyOptions = {},
): AsyncIterableIterator<T> {
  const generator = read(body, decode, options);
  let started = false;
  /** A generator closed before its first `next()` never runs its `finally`: release the body here. */
  const releaseUnstarted = async (): Promise<void> => {
    if (started) return;
    started = true;
    try {
      if (isNodeReadable(body)) body.destroy();
      else await body[Symbol.asyncIterator]().return?.();
    } finally {
      options.onTeardown?.();
    }
  };
  const iterator: AsyncIterableIterator<T> = {
    next: () => {
      started = true;
      return generator.next();
    },
    return: async () => {
      await releaseUnstarted();
      return generator.return();
    },
    throw: async (error: unknown) => {
      await releaseUnstarted();
      return generator.throw(error);
    },
    [Symbol.asyncIterator]: () => iterator,
  };
  return iterator;
}

async function* read<T>(
  body: JsonArrayBody,
  decode: (value: unknown, index: number, text: string | undefined) => T,
  options: JsonArrayBodyOptions,
): AsyncGenerator<T, void, undefined> {
  const parsed: T[] = [];
  const scanner = new JsonArrayScanner((value, index, text) => {
    parsed.push(decode(value, index, text));
  }, options);
  const source = (body as AsyncIterable<unknown>)[Symbol.asyncIterator]();
  let finished = false;
  try {
    for (;;) {
      let result: IteratorResult<unknown>;
      try {
        result = await source.next();
      } catch (error) {
        finished = true;
        if (scanner.arrayClosed) return;
        throw bodyReadError(error, scanner);
      }
      if (result.done === true) {
        finished = true;
        scanner.end();
        return;
      }
      let failure: { error: unknown } | undefined;
      try {
        const bytes = chunkBytes(result.value);
        options.onBytes?.(bytes.length);
        scanner.write(bytes);
      } catch (error) {
        failure = { error };
      }
      for (let i = 0; i < parsed.length; i++) yield parsed[i] as T;
      parsed.length = 0;
      if (failure) throw failure.error;
    }
  } finally {
    scanner.close();
    try {
      if (!finished) await source.return?.();
    } finally {
      options.onTeardown?.();
    }
  }
}
