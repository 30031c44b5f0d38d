import { iterateJsonArrayBody } from '../../streams/index.js';
import { cancelReason } from '../http/cancel-reason.js';
import type { HttpTransport, OpenResponse } from '../http/create-http-transport.js';
import type { StreamedRead } from './observe-read.js';

/**
 * The `list` of a streamed read (`POST /v2/updates`, ...) as an async iterable (no RxJS needed): each
 * `for await` sends one request and yields the array's elements, each through `read.decoder()`, as the
 * streams layer's `iterateJsonArrayBody` parses them from the body.
 *
 * The loop ends when the array ends. Errors are thrown from the loop: the HTTP error of a non-2xx answer,
 * or mid-body the streams layer's `TransportError`/`ProtocolError` (an `AbortError` when `signal` fired or
 * the client was closed). Leaving the loop early (`break`, `return`, a throw in the body) aborts the
 * request and destroys the response body. The request's span ends with the loop: its elements, the error,
 * or cancelled.
 *
 * @param transport - the client's HTTP layer.
 * @param read - path, query, body, span attributes and the element decoder (a signal is made per iteration).
 * @param signal - the caller's abort signal, if any.
 * @param onBytes - called with the size of each body chunk as it is read, if given.
 */
export function iterateList<T>(transport: HttpTransport, read: StreamedRead<T>, signal: AbortSignal | undefined, onBytes?: (bytes: number) => void): AsyncIterable<T> {
  async function* run(): AsyncGenerator<T, void, undefined> {
    const controller = new AbortController();
    let response: OpenResponse | undefined;
    let elements = 0;
    const elementsRead = (r: OpenResponse) => ({ status: r.status, attributes: { 'ledger_rx.elements': elements } });
    try {
      const { path, query, body, spanAttributes } = read;
      response = await transport.open({ method: 'POST', path, query, body, spanAttributes, signal, cancel: controller.signal });
      for await (const element of iterateJsonArrayBody(response.body, read.decoder(), onBytes ? { onBytes } : {})) {
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
