import type { Observable } from 'rxjs';
import type { RequestAttributes } from '../../tracing/trace-request.js';
import { observeJsonList } from '../http/observe-json-list.js';
import { observeWebSocketStream, type WebSocketStreamCall } from '../websocket/observe-websocket-stream.js';
import { streamFrameDecoder } from '../websocket/stream-frame-decoder.js';
import type { UpdatesDeps } from './create-updates-methods.js';

/**
 * One streamed read as its method describes it: the endpoint and body; the list's query (`limit`,
 * `stream_idle_timeout_ms`); the WebSocket frame member holding an element (`update`, `contractEntry`,
 * `completionResponse`) and whether that stream ends by itself; the element decoder of one answer (made per
 * answer: it may keep state, such as the last offset); the span's attributes.
 */
export interface StreamedRead<T> {
  readonly path: string;
  readonly body: object;
  readonly query?: Readonly<Record<string, number | undefined>> | undefined;
  readonly frameKey: string;
  readonly bounded: boolean;
  readonly decoder: () => (value: unknown, index: number, text: string | undefined) => T;
  readonly spanAttributes?: RequestAttributes | undefined;
}

/**
 * One read of a streamed endpoint, one request per subscription, over `transport`: `list` (the `POST` list
 * through `observeJsonList`) or `websocket` (the endpoint upgraded, one frame per element, through
 * `observeWebSocketStream`; error frames become `LedgerApiError`s, `streamFrameDecoder`). Emits, completes and
 * errors as those do; unsubscribing aborts the request (closes the socket).
 */
export function observeRead<T>(deps: Omit<UpdatesDeps, 'requirePages'>, transport: 'list' | 'websocket', read: StreamedRead<T>, options: WebSocketStreamCall<T>['options']): Observable<T> {
  const { path, body, spanAttributes } = read;
  if (transport === 'list') return observeJsonList(deps.http, { method: 'POST', path, query: read.query, body, spanAttributes }, read.decoder, options.signal, options.onBytes);
  const frameDecoder = (label: string) => streamFrameDecoder(read.frameKey, read.decoder(), label);
  return observeWebSocketStream(deps.sockets, { path, body, bounded: read.bounded, frameDecoder, options, refreshableToken: deps.resolved.refreshableToken, spanAttributes });
}
