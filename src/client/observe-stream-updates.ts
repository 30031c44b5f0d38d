import { defer, from, Observable, retry, switchMap, throwError, timer } from 'rxjs';
import { AbortError, ErrorCodes, LedgerApiError, TransportError } from '../errors/index.js';
import type { JsGetUpdatesResponse } from '../schemas/index.js';
import { observeWebSocketFrames } from '../streams/index.js';
import type { UpdateDecoding } from '../updates/update-decoding.js';
import type { OpenWebSocket, WebSocketTransport } from './create-websocket-transport.js';
import { streamCloseOutcome } from './stream-close-outcome.js';
import { streamFrameDecoder } from './stream-frame-decoder.js';
import type { StreamUpdatesOptions } from './stream-updates-options.js';
import { stripEnvelopeNulls } from './strip-envelope-nulls.js';
import type { UpdatesBody } from './to-updates-body.js';

/** Settings of {@link observeStreamUpdates}, resolved by the client method. */
export interface StreamUpdatesCall {
  readonly body: UpdatesBody;
  readonly decoding: UpdateDecoding;
  readonly options: StreamUpdatesOptions;
  /** The token is a provider: a 401 error frame before any element is retried once with a fresh token. */
  readonly refreshableToken: boolean;
}

/**
 * `GET /v2/updates` over a WebSocket, one connection per subscription: opens the socket (token in the
 * subprotocols), sends the request as the one text frame, and emits one element per frame as it arrives.
 *
 * Completes when a bounded read (`endInclusive`) is closed normally by the server. Errors with the
 * `LedgerApiError` of an error frame (or of a refused upgrade), with a retryable `TransportError` when the
 * socket closes otherwise (`CONNECTION_RESET`, always for an open-ended read) or stays silent
 * (`REQUEST_TIMEOUT`), with `ProtocolError`s of the element checks, and with `AbortError` when the caller's
 * signal fires or the client is closed. A 401 before any element is retried once (a fresh token).
 * Unsubscribing closes the socket.
 */
export function observeStreamUpdates(transport: WebSocketTransport, call: StreamUpdatesCall): Observable<JsGetUpdatesResponse> {
  const { body, decoding, options } = call;
  const bounded = body.endInclusive != null;
  const requestText = JSON.stringify(stripEnvelopeNulls(body));
  const signal = options.signal;

  const stream = (open: OpenWebSocket, onElement: () => void): Observable<JsGetUpdatesResponse> =>
    new Observable<JsGetUpdatesResponse>((subscriber) => {
      const decode = streamFrameDecoder(decoding, open.request);
      const frames = observeWebSocketFrames(open.socket, decode, {
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
      const onAbort = (): void =>
        subscriber.error(new AbortError(transport.closed.aborted ? `${open.request} was aborted: the ledger client was closed` : `${open.request} was aborted`));
      transport.closed.addEventListener('abort', onAbort, { once: true });
      signal?.addEventListener('abort', onAbort, { once: true });
      const subscription = frames.subscribe({
        next: (element) => {
          onElement();
          subscriber.next(element);
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => subscriber.complete(),
      });
      if (!subscription.closed) {
        try {
          open.socket.send(requestText);
          options.onOpen?.({ tokenExpiresAt: open.tokenExpiresAt });
        } catch (error) {
          subscriber.error(open.mapError(error));
        }
      }
      return () => {
        transport.closed.removeEventListener('abort', onAbort);
        signal?.removeEventListener('abort', onAbort);
        subscription.unsubscribe();
      };
    });

  return defer(() => {
    let received = false;
    return defer(() => from(transport.connect('/v2/updates', signal))).pipe(
      switchMap((open) => stream(open, () => (received = true))),
      retry({
        count: call.refreshableToken ? 1 : 0,
        delay: (error: unknown) => (error instanceof LedgerApiError && error.status === 401 && !received ? timer(0) : throwError(() => error)),
      }),
    );
  });
}
