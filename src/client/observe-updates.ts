import { catchError, defer, finalize, from, switchMap, throwError, type Observable } from 'rxjs';
import type { JsGetUpdatesResponse } from '../schemas/index.js';
import { observeJsonArrayBody } from '../streams/index.js';
import { cancelReason } from './cancel-reason.js';
import type { UpdateDecoding } from '../updates/update-decoding.js';
import { updateElementDecoder } from '../updates/update-element-decoder.js';
import type { HttpCall, HttpTransport } from './create-http-transport.js';

/**
 * Sends one `POST /v2/updates` per subscription and emits the elements of the answer's JSON array as
 * they are parsed from the body (via the streams layer's `observeJsonArrayBody`).
 *
 * ```
 * body bytes:  [ {..}, {..}, {..} ]
 * emits:       ----a-----b-----c--|
 * ```
 *
 * Completes when the array ends. Errors with the HTTP error of a non-2xx answer (nothing emitted), or
 * mid-body with the streams layer's `TransportError`/`ProtocolError`; when `signal` fired (or the client
 * was closed) the error is an `AbortError`. Unsubscribing aborts the HTTP request and destroys the body.
 *
 * @param transport - the client's HTTP layer.
 * @param call - method, path, query and body (no signal: one is made per subscription).
 * @param decoding - whether each element is validated, and whether its raw text is kept.
 * @param signal - the caller's abort signal, if any.
 * @param onBytes - called with the size of each body chunk as it is read, if given.
 */
export function observeUpdates(
  transport: HttpTransport,
  call: Omit<HttpCall, 'signal' | 'cancel'>,
  decoding: UpdateDecoding,
  signal: AbortSignal | undefined,
  onBytes?: (bytes: number) => void,
): Observable<JsGetUpdatesResponse> {
  return defer(() => {
    const controller = new AbortController();
    return from(transport.open({ ...call, signal, cancel: controller.signal })).pipe(
      switchMap((response) =>
        observeJsonArrayBody(response.body, updateElementDecoder(decoding), {
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
