import type { JsGetUpdatesResponse } from '../../schemas/index.js';
import { iterateJsonArrayBody } from '../../streams/index.js';
import { cancelReason } from '../http/cancel-reason.js';
import type { UpdateDecoding } from '../../updates/update-decoding.js';
import { updateElementDecoder } from '../../updates/update-element-decoder.js';
import type { HttpCall, HttpTransport, OpenResponse } from '../http/create-http-transport.js';

/**
 * `POST /v2/updates` as an async iterable (no RxJS needed): each `for await` sends one request and yields
 * the array's elements as the streams layer's `iterateJsonArrayBody` parses them from the body.
 *
 * The loop ends when the array ends. Errors are thrown from the loop: the HTTP error of a non-2xx answer,
 * or mid-body the streams layer's `TransportError`/`ProtocolError` (an `AbortError` when `signal` fired or
 * the client was closed). Leaving the loop early (`break`, `return`, a throw in the body) aborts the
 * request and destroys the response body. The request's span ends with the loop: its elements, the error,
 * or cancelled.
 *
 * @param transport - the client's HTTP layer.
 * @param call - method, path, query and body (no signal: one is made per iteration).
 * @param decoding - whether each element is validated, and whether its raw text is kept.
 * @param signal - the caller's abort signal, if any.
 * @param onBytes - called with the size of each body chunk as it is read, if given.
 */
export function iterateUpdates(
  transport: HttpTransport,
  call: Omit<HttpCall, 'signal' | 'cancel'>,
  decoding: UpdateDecoding,
  signal: AbortSignal | undefined,
  onBytes?: (bytes: number) => void,
): AsyncIterable<JsGetUpdatesResponse> {
  async function* run(): AsyncGenerator<JsGetUpdatesResponse, void, undefined> {
    const controller = new AbortController();
    let response: OpenResponse | undefined;
    let elements = 0;
    const elementsRead = (r: OpenResponse) => ({ status: r.status, attributes: { 'ledger_rx.elements': elements } });
    try {
      response = await transport.open({ ...call, signal, cancel: controller.signal });
      for await (const element of iterateJsonArrayBody(response.body, updateElementDecoder(decoding), onBytes ? { onBytes } : {})) {
        elements++;
        yield element;
      }
      response.trace.end(elementsRead(response));
    } catch (error) {
      if (!response) throw error;
      const mapped = response.mapError(error);
      response.trace.end({ ...elementsRead(response), error: mapped });
      throw mapped;
    } finally {
      controller.abort(cancelReason);
      response?.trace.end({ ...elementsRead(response), cancelled: true });
      response?.body.destroy();
    }
  }
  return { [Symbol.asyncIterator]: run };
}
