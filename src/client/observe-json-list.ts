import { catchError, defer, finalize, from, switchMap, throwError, type Observable } from 'rxjs';
import { observeJsonArrayBody } from '../streams/index.js';
import { cancelReason } from './cancel-reason.js';
import type { HttpCall, HttpTransport } from './create-http-transport.js';

/**
 * Sends one call answered by a JSON array (`POST /v2/updates`, `POST /v2/state/active-contracts`, `POST
 * /v2/commands/completions`, ...) per subscription and emits the array's elements as they are parsed from
 * the body (via the streams layer's `observeJsonArrayBody`), each through the answer's decoder.
 *
 * ```
 * body bytes:  [ {..}, {..}, {..} ]
 * emits:       ----a-----b-----c--|
 * ```
 *
 * Completes when the array ends. Errors with the HTTP error of a non-2xx answer (nothing emitted), or
 * mid-body with the streams layer's `TransportError`/`ProtocolError` or what the decoder throws; when
 * `signal` fired (or the client was closed) the error is an `AbortError`. Unsubscribing aborts the HTTP
 * request and destroys the body.
 *
 * @param transport - the client's HTTP layer.
 * @param call - method, path, query and body (no signal: one is made per subscription).
 * @param decoder - makes the decoder of one answer (it may keep state, such as the last offset): decoding,
 *   validation, checks, `rawText`.
 * @param signal - the caller's abort signal, if any.
 * @param onBytes - called with the size of each body chunk as it is read, if given.
 */
export function observeJsonList<T>(
  transport: HttpTransport,
  call: Omit<HttpCall, 'signal' | 'cancel'>,
  decoder: () => (value: unknown, index: number, text: string | undefined) => T,
  signal: AbortSignal | undefined,
  onBytes?: (bytes: number) => void,
): Observable<T> {
  return defer(() => {
    const controller = new AbortController();
    return from(transport.open({ ...call, signal, cancel: controller.signal })).pipe(
      switchMap((response) =>
        observeJsonArrayBody(response.body, decoder(), {
          onTeardown: () => controller.abort(cancelReason),
          ...(onBytes ? { onBytes } : {}),
        }).pipe(
          catchError((error: unknown) => {
            // map now: the body's teardown runs before a lazily mapped error would be built
            const mapped = response.mapError(error);
            return throwError(() => mapped);
          }),
        ),
      ),
      finalize(() => controller.abort(cancelReason)),
    );
  });
}
