import { Buffer } from 'node:buffer';
import { Observable, type Subscription } from 'rxjs';
import type { FrameSocket } from './frame-socket.js';
import { malformedElementError } from './malformed-element-error.js';
import { utf8Text } from './utf8-text.js';
import type { WebSocketFramesOptions } from './websocket-frames-options.js';

const ignore = (): void => undefined;

/** The payload of a `message` event as bytes (text frames arrive as bytes from `ws`). */
function frameBytes(data: unknown): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data as Buffer[]);
  if (data instanceof ArrayBuffer) return Buffer.from(data);
  if (typeof data === 'string') return Buffer.from(data, 'utf8');
  throw new TypeError(`a WebSocket frame must be bytes or text, got ${typeof data}`);
}

/**
 * The data frames of an open WebSocket as values: each frame is one JSON document, parsed and passed through
 * `decode(value, index, text, bytes)` (`bytes`: the frame's payload, the UTF-8 of `text`), and emitted
 * synchronously as it arrives (`index` counts frames from 0).
 *
 * - Completes when the socket closes and `closeOutcome(code, reason)` says so; errors with the error it
 *   returns otherwise, with `socketError(e)` for an `error` event of the socket, with `ProtocolError`
 *   `MALFORMED_JSON` for a frame that is not JSON, and with whatever `decode` throws.
 * - Backpressure: while `paused` says `true`, the socket is paused, so nothing more is read and TCP pushes
 *   back on the sender (frames `ws` had already read may still arrive and are emitted).
 * - Liveness: with `pingIntervalMs`, a ping is sent that often, and when no frame (data or pong) arrived
 *   for `silenceTimeoutMs` of unpaused time the socket is destroyed and the Observable errors with
 *   `silenceError(ms)`.
 * - The socket may be handed over paused, so that no frame arrives before the listeners: it is resumed on
 *   subscription (unless `paused` says `true`).
 * - Unsubscribing, or any error, releases the socket: it is resumed, closed with 1000 and destroyed after
 *   `closeGraceMs` if the peer does not close. Cold per subscription, but a socket can be observed once.
 */
export function observeWebSocketFrames<T>(
  socket: FrameSocket,
  decode: (value: unknown, index: number, text: string, bytes: Buffer) => T,
  options: WebSocketFramesOptions,
): Observable<T> {
  return new Observable<T>((subscriber) => {
    let index = 0;
    let bytes = 0;
    let done = false;
    let paused = false;
    let lastFrameAt = Date.now();

    const release = (): void => {
      if (pinger !== undefined) clearInterval(pinger);
      pausedSubscription?.unsubscribe();
      socket.off('message', onMessage);
      socket.off('close', onClose);
      socket.off('error', onError);
      socket.off('pong', onPong);
      socket.on('error', ignore); // a late error of the closing socket must not become an uncaught exception
      if (socket.readyState === 3) return;
      if (paused) socket.resume(); // the close handshake needs the peer's close frame to be read
      try {
        socket.close(1000);
      } catch {
        socket.terminate();
      }
      const grace = setTimeout(() => socket.terminate(), options.closeGraceMs ?? 2_000);
      grace.unref?.();
      socket.on('close', () => clearTimeout(grace));
    };
    const fail = (error: unknown): void => {
      if (done) return;
      done = true;
      subscriber.error(error);
    };

    const onMessage = (data: unknown): void => {
      if (done) return;
      lastFrameAt = Date.now();
      let value: unknown;
      let text: string;
      const i = index++;
      try {
        const payload = frameBytes(data);
        options.onBytes?.(payload.length);
        const at = bytes;
        bytes += payload.length;
        text = utf8Text(payload, 0, payload.length); // as `toString('utf8')`, cheaper for ASCII text (docs/benchmarks.md#websocket-catch-up)
        try {
          value = JSON.parse(text);
        } catch (cause) {
          throw malformedElementError(i, at, `WebSocket frame ${i} is not valid JSON`, cause);
        }
        subscriber.next(decode(value, i, text, payload));
      } catch (error) {
        fail(error);
      }
    };
    const onClose = (code: number, reason: Buffer): void => {
      if (done) return;
      const outcome = options.closeOutcome(code, Buffer.isBuffer(reason) ? reason.toString('utf8') : String(reason ?? ''));
      done = true;
      if (outcome === undefined) subscriber.complete();
      else subscriber.error(outcome);
    };
    const onError = (error: unknown): void => fail(options.socketError(error));
    const onPong = (): void => {
      lastFrameAt = Date.now();
    };

    socket.on('message', onMessage);
    socket.on('close', onClose);
    socket.on('error', onError);
    socket.on('pong', onPong);
    const pausedSubscription: Subscription | undefined = options.paused?.subscribe((pause) => {
      if (done || pause === paused) return;
      paused = pause;
      if (pause) {
        socket.pause();
      } else {
        lastFrameAt = Date.now(); // silence while paused was ours, not the peer's
        socket.resume();
      }
    });

    const pingEvery = options.pingIntervalMs ?? 0;
    const silenceMs = options.silenceTimeoutMs ?? 0;
    const pinger = pingEvery <= 0 ? undefined : setInterval(() => {
      if (done || paused) return;
      const silent = Date.now() - lastFrameAt;
      if (silenceMs > 0 && silent >= silenceMs && options.silenceError) {
        socket.terminate(); // first: the peer does not answer, a close handshake would only wait
        fail(options.silenceError(silent));
        return;
      }
      try {
        socket.ping();
      } catch {
        // a socket that is closing cannot ping; its close event follows
      }
    }, pingEvery);
    pinger?.unref?.();
    if (!paused) socket.resume(); // a socket handed over paused (nothing lost before the listeners) reads now
    if (socket.readyState !== 1) fail(options.closeOutcome(1006, 'the socket was not open') ?? new Error('the socket was not open'));
    return release;
  });
}
