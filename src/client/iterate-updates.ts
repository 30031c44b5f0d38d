import type { JsGetUpdatesResponse } from '../schemas/index.js';
import { decodeUpdateElement, iterateJsonArrayBody } from '../streams/index.js';
import type { HttpCall, HttpTransport, OpenResponse } from './create-http-transport.js';

/**
 * `POST /v2/updates` as an async iterable (no RxJS needed): each `for await` sends one request and yields
 * the array's elements as the streams layer's `iterateJsonArrayBody` parses them from the body.
 *
 * The loop ends when the array ends. Errors are thrown from the loop: the HTTP error of a non-2xx answer,
 * or mid-body the streams layer's `TransportError`/`ProtocolError` (an `AbortError` when `signal` fired or
 * the client was closed). Leaving the loop early (`break`, `return`, a throw in the body) aborts the
 * request and destroys the response body.
 *
 * @param transport - the client's HTTP layer.
 * @param call - method, path, query and body (no signal: one is made per iteration).
 * @param validate - whether each element is checked against the wire schema.
 * @param signal - the caller's abort signal, if any.
 */
export function iterateUpdates(
  transport: HttpTransport,
  call: Omit<HttpCall, 'signal' | 'cancel'>,
  validate: boolean,
  signal: AbortSignal | undefined,
): AsyncIterable<JsGetUpdatesResponse> {
  async function* run(): AsyncGenerator<JsGetUpdatesResponse, void, undefined> {
    const controller = new AbortController();
    let response: OpenResponse | undefined;
    try {
      response = await transport.open({ ...call, signal, cancel: controller.signal });
      yield* iterateJsonArrayBody(response.body, (value, index) => decodeUpdateElement(value, index, { validate }), {});
    } catch (error) {
      throw response ? response.mapError(error) : error;
    } finally {
      controller.abort();
      response?.body.destroy();
    }
  }
  return { [Symbol.asyncIterator]: run };
}
