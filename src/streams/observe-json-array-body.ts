import { Observable, type Subscriber } from 'rxjs';
import type { Readable } from 'node:stream';
import { ErrorCodes, TransportError } from '../errors/index.js';
import { bodyReadError } from './body-read-error.js';
import { chunkBytes } from './chunk-bytes.js';
import { isNodeReadable } from './is-node-readable.js';
import type { JsonArrayBody } from './json-array-body.js';
import type { JsonArrayBodyOptions } from './json-array-body-options.js';
import { JsonArrayScanner } from './json-array-scanner.js';

const ignore = (): void => undefined;

/**
 * The elements of the JSON array in a response body, as an Observable, parsed incrementally (see
 * {@link JsonArrayScanner}): the body is never held in memory.
 *
 * Cold: the body is read from subscription on (one subscription per body). Each element is passed through
 * `decode(value, index)` and emitted synchronously as soon as its last byte has arrived; with a Node
 * `Readable` the next chunk is only taken after the current one has been processed, so backpressure is
 * natural. Completes when the array is closed and the body has ended (bytes after the `]` other than
 * whitespace are an error).
 *
 * Errors with:
 * - `ProtocolError` `MALFORMED_JSON` / `SCHEMA_MISMATCH` for a body that is not a well-formed JSON array;
 * - `TransportError` `BODY_TRUNCATED` when the body ends (or is closed) before the array is closed, and
 *   `CONNECTION_RESET` (`BODY_TRUNCATED` for a premature close) when the body stream errors mid-array;
 *   `AbortError` when it errors with an abort;
 * - whatever `decode` throws.
 *
 * Unsubscribing, or an error, stops reading at once and destroys the body (`destroy()` on a `Readable`,
 * `return()` on an async iterator); then, in every case including completion, `onTeardown` is called once.
 */
export function observeJsonArrayBody<T>(
  body: JsonArrayBody,
  decode: (value: unknown, index: number, text: string | undefined) => T,
  options: JsonArrayBodyOptions = {},
): Observable<T> {
  return new Observable<T>((subscriber) => {
    let scanner: JsonArrayScanner;
    try {
      scanner = new JsonArrayScanner((value, index, text) => subscriber.next(decode(value, index, text)), options);
    } catch (error) {
      if (isNodeReadable(body)) body.destroy();
      options.onTeardown?.();
      throw error;
    }
    const release = isNodeReadable(body) ? readReadable(body, scanner, subscriber, options.onBytes) : readIterable(body, scanner, subscriber, options.onBytes);
    return () => {
      scanner.close();
      release();
      options.onTeardown?.();
    };
  });
}

function readReadable<T>(body: Readable, scanner: JsonArrayScanner, subscriber: Subscriber<T>, onBytes: ((bytes: number) => void) | undefined): () => void {
  let ended = false;
  const finish = (): void => {
    ended = true;
    try {
      scanner.end();
    } catch (error) {
      subscriber.error(error);
      return;
    }
    subscriber.complete();
  };
  const onData = (chunk: unknown): void => {
    try {
      const bytes = chunkBytes(chunk);
      onBytes?.(bytes.length);
      scanner.write(bytes);
    } catch (error) {
      subscriber.error(error);
    }
  };
  const onError = (error: unknown): void => {
    if (scanner.arrayClosed) finish();
    else subscriber.error(bodyReadError(error, scanner));
  };
  const onClose = (): void => {
    if (ended) return;
    if (scanner.arrayClosed) finish();
    else subscriber.error(truncatedByClose(scanner));
  };
  const release = (): void => {
    body.off('data', onData);
    body.off('end', finish);
    body.off('error', onError);
    body.off('close', onClose);
    body.on('error', ignore); // a late error (the abort done by onTeardown) must not become an uncaught exception
    if (!ended) body.destroy();
  };
  if (body.destroyed || body.readableEnded) {
    ended = body.readableEnded;
    subscriber.error(body.errored ? bodyReadError(body.errored, scanner) : truncatedByClose(scanner));
    return release;
  }
  body.on('data', onData);
  body.on('end', finish);
  body.on('error', onError);
  body.on('close', onClose);
  body.resume();
  return release;
}

function readIterable<T>(
  body: AsyncIterable<Uint8Array>,
  scanner: JsonArrayScanner,
  subscriber: Subscriber<T>,
  onBytes: ((bytes: number) => void) | undefined,
): () => void {
  const iterator = body[Symbol.asyncIterator]();
  let done = false;
  let active = true;
  void (async () => {
    try {
      for (;;) {
        let result: IteratorResult<Uint8Array>;
        try {
          result = await iterator.next();
        } catch (error) {
          done = true;
          if (!active) return;
          if (scanner.arrayClosed) subscriber.complete();
          else subscriber.error(bodyReadError(error, scanner));
          return;
        }
        if (!active) return;
        if (result.done === true) break;
        const bytes = chunkBytes(result.value);
        onBytes?.(bytes.length);
        scanner.write(bytes);
        if (!active) return;
      }
      done = true;
      scanner.end();
      subscriber.complete();
    } catch (error) {
      subscriber.error(error);
    }
  })();
  return () => {
    active = false;
    if (done) return;
    done = true;
    try {
      void Promise.resolve(iterator.return?.()).catch(ignore);
    } catch {
      // a throwing return() leaves nothing more to release
    }
  };
}

function truncatedByClose(scanner: JsonArrayScanner): TransportError {
  return new TransportError(
    ErrorCodes.BODY_TRUNCATED,
    `the response body was closed after ${scanner.bytesWritten} bytes, before the JSON array was closed (${scanner.elementCount} complete elements)`,
  );
}
