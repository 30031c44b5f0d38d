import { catchError, defer, finalize, from, switchMap, tap, throwError, type Observable } from 'rxjs';
import { observeJsonArrayBody } from '../../streams/index.js';
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
 * request and destroys the body. The request's span (see `HttpTransport.open`) ends with the answer: its
 * elements, the error, or cancelled.
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
      switchMap((response) => {
        const { trace } = response;
        let elements = 0;
        const elementsRead = () => ({ status: response.status, attributes: { 'ledger_rx.elements': elements } });
        return observeJsonArrayBody(response.body, decoder(), {
          onTeardown: () => controller.abort(cancelReason),
          ...(onBytes ? { onBytes } : {}),
        }).pipe(
          trace.recording ? tap(() => void elements++) : (source) => source,
          catchError((error: unknown) => {
            // map now: the body's teardown runs before a lazily mapped error would be built
            const mapped = response.mapError(error);
            trace.end({ ...elementsRead(), error: mapped });
            return throwError(() => mapped);
          }),
          tap({ complete: () => trace.end(elementsRead()) }),
          finalize(() => trace.end({ ...elementsRead(), cancelled: true })),
        );
      }),
      finalize(() => controller.abort(cancelReason)),
    );
  });
}
