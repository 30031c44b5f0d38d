import { defer, from, Observable, retry, switchMap, throwError, timer } from 'rxjs';
import { AbortError, ErrorCodes, LedgerApiError, toLedgerApiError, TransportError } from '../../errors/index.js';
import { observeWebSocketFrames } from '../../streams/index.js';
import type { OpenWebSocket, WebSocketTransport } from './create-websocket-transport.js';
import { streamCloseOutcome } from './stream-close-outcome.js';
import type { UpdatesOptions } from '../../updates/updates-options.js';
import { stripEnvelopeNulls } from '../http/strip-envelope-nulls.js';
import type { RequestAttributes } from '../../tracing/trace-request.js';

/** What {@link observeWebSocketStream} opens and how it reads the frames, resolved by a client method. */
export interface WebSocketStreamCall<T> {
  /** The endpoint, e.g. `/v2/updates`, `/v2/state/active-contracts`, `/v2/commands/completions`. */
  readonly path: string;
  /** The request, sent as the one text frame (envelope `null`s left out). */
  readonly body: object;
  /**
   * `true` when the server ends the stream by itself (a bounded read of updates, a snapshot of active
   * contracts): a normal close (1000) after the last element completes it. An open-ended stream never ends,
   * so any close of it is a retryable `TransportError`.
   */
  readonly bounded: boolean;
  /**
   * Makes the frame decoder of one connection (it may keep state, such as the last offset): called with
   * the request's label, it returns what is done with each frame's JSON (see `streamFrameDecoder`).
   */
  readonly frameDecoder: (request: string) => (value: unknown, index: number, text: string, bytes: Uint8Array) => T;
  readonly options: Pick<UpdatesOptions, 'signal' | 'onBytes' | 'paused' | 'onOpen' | 'pingIntervalMs' | 'silenceTimeoutMs'>;
  /** The token is a provider: a 401 error frame before any element is retried once with a fresh token. */
  readonly refreshableToken: boolean;
  /** Extra attributes of the connection's span (e.g. the range asked for). */
  readonly spanAttributes?: RequestAttributes | undefined;
}

/** The same error with `hint` (the most specific subclass again, every field kept). */
function withHint(error: LedgerApiError, hint: string): LedgerApiError {
  return toLedgerApiError({ status: error.status, body: error.body, text: error.text, request: error.request, retryAfterHeaderMs: error.retryAfterMs, hint });
}

/**
 * One WebSocket stream of the JSON Ledger API, one connection per subscription: opens the socket (token in
 * the subprotocols), sends the request as the one text frame, and emits one element per frame as it arrives,
 * decoded by the call's frame decoder. The same reader serves every WebSocket endpoint (updates, active
 * contracts, completions).
 *
 * Completes when a bounded stream is closed normally by the server. Errors with the `LedgerApiError` of an
 * error frame (or of a refused upgrade), with a retryable `TransportError` when the socket closes otherwise
 * (`CONNECTION_RESET`, always for an open-ended stream) or stays silent (`REQUEST_TIMEOUT`), with what the
 * frame decoder throws, and with `AbortError` when the caller's signal fires or the client is closed. A 401
 * before any element is retried once (a fresh token). Unsubscribing closes the socket. The connection's span
 * (see `WebSocketTransport.connect`) ends with the stream: its elements, the error, or cancelled.
 */
export function observeWebSocketStream<T>(transport: WebSocketTransport, call: WebSocketStreamCall<T>): Observable<T> {
  const { options, bounded } = call;
  const requestText = JSON.stringify(stripEnvelopeNulls(call.body));
  const signal = options.signal;

  const stream = (open: OpenWebSocket, onElement: () => void): Observable<T> =>
    new Observable<T>((subscriber) => {
      const frames = observeWebSocketFrames(open.socket, call.frameDecoder(open.request), {
        closeOutcome: (code, reason) => streamCloseOutcome(code, reason, bounded, open.request),
        socketError: open.mapError,
        paused: options.paused,
        pingIntervalMs: options.pingIntervalMs ?? 10_000,
        silenceTimeoutMs: options.silenceTimeoutMs ?? 30_000,
        silenceError: (ms) =>
          new TransportError(ErrorCodes.REQUEST_TIMEOUT, `${open.request}: nothing arrived for ${ms} ms (no element, checkpoint or pong)`, {
            request: open.request,
          }),
        onBytes: options.onBytes,
      });
      let elements = 0;
      const elementsRead = () => ({ status: 101, attributes: { 'ledger_rx.elements': elements } });
      const fail = (failure: unknown): void => {
        // a 403 error frame is redacted by the participant: say what it checked, as far as the client can tell
        const hint = failure instanceof LedgerApiError && failure.status === 403 && failure.hint === undefined ? open.explainForbidden(call.body) : undefined;
        const error = hint === undefined ? failure : withHint(failure as LedgerApiError, hint);
        open.trace.end({ ...elementsRead(), error });
        subscriber.error(error);
      };
      const onAbort = (): void =>
        fail(new AbortError(transport.closed.aborted ? `${open.request} was aborted: the ledger client was closed` : `${open.request} was aborted`));
      transport.closed.addEventListener('abort', onAbort, { once: true });
      signal?.addEventListener('abort', onAbort, { once: true });
      const subscription = frames.subscribe({
        next: (element) => {
          onElement();
          elements++;
          subscriber.next(element);
        },
        error: fail,
        complete: () => {
          open.trace.end(elementsRead());
          subscriber.complete();
        },
      });
      if (!subscription.closed) {
        try {
          open.socket.send(requestText);
          options.onOpen?.({ tokenExpiresAt: open.tokenExpiresAt });
        } catch (error) {
          fail(open.mapError(error));
        }
      }
      return () => {
        open.trace.end({ ...elementsRead(), cancelled: true });
        transport.closed.removeEventListener('abort', onAbort);
        signal?.removeEventListener('abort', onAbort);
        subscription.unsubscribe();
      };
    });

  return defer(() => {
    let received = false;
    return defer(() => from(transport.connect(call.path, signal, call.spanAttributes, call.body))).pipe(
      switchMap((open) => stream(open, () => (received = true))),
      retry({
        count: call.refreshableToken ? 1 : 0,
        delay: (error: unknown) => (error instanceof LedgerApiError && error.status === 401 && !received ? timer(0) : throwError(() => error)),
      }),
    );
  });
}
