import type { Duplex } from 'node:stream';
import type { RawData, WebSocket } from 'ws';
import type { Claims } from '../auth/claims.js';
import { ErrorDefs } from '../errors/error-defs.js';
import { SandboxError } from '../errors/sandbox-error.js';
import type { ParticipantState } from '../participant/participant-state.js';
import { FrameSink, type FrameSinkStats } from './frame-sink.js';
import type { WebSocketChannel } from './websocket-channel.js';

/** One open WebSocket stream, as `Sandbox.webSocketSessions()` lists it. */
export interface WebSocketSessionInfo extends FrameSinkStats {
  readonly path: string;
}

/** A served connection: its counters and a way to end it. */
export interface WebSocketSession {
  info(): WebSocketSessionInfo;
  /** Ends the stream and drops the connection (the sandbox stops). */
  terminate(): void;
  /** Resolves when the connection is closed. */
  readonly closed: Promise<void>;
}

/** Settings of a session. */
export interface SessionOptions {
  readonly traceId: string;
  /** The caller's claims, resolved on demand at the authorization step of the channel's validation. */
  readonly claims: () => Promise<Claims>;
  /** No frame in either direction for this long drops the connection; 0 = never. */
  readonly idleTimeoutMs: number;
}

/** The JSON-layer error of a request frame the server cannot decode (its stream fails before the request reaches the participant). */
function frameDecodeError(frame: string, reason: string): SandboxError {
  const failure = `Cannot decode frame: Text(${frame},true,None), due to: ${reason}`;
  return SandboxError.jsonLayer(ErrorDefs.LEDGER_API_INTERNAL_ERROR, failure, {
    context: { throwableO: `Some(sttp.tapir.model.WebSocketFrameDecodeFailure: ${failure})` },
  });
}

function text(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data as ArrayBuffer).toString('utf8');
}

/**
 * Serves one upgraded connection of `channel` the way the participant's JSON API does (docs/websocket-protocol.md):
 *
 * - it waits for one request frame; frames after it are ignored. A binary frame, text that is not JSON
 *   or JSON the channel cannot decode is answered with the frame-decoding error frame
 *   (`LEDGER_API_INTERNAL_ERROR`, no trace id) and the close;
 * - the channel validates and streams: one text frame per element, with backpressure ({@link FrameSink});
 * - a `SandboxError` (validation, authorization, an expired token or changed rights mid-stream) becomes
 *   one error frame with the ten `JsCantonError` fields; any other exception becomes
 *   `LEDGER_API_INTERNAL_ERROR`;
 * - after the last element of a bounded stream, or after an error frame, the server closes with 1000 and
 *   no reason; an open-ended stream stays open;
 * - a close from the client (any code) ends the stream; the `ws` library echoes the close;
 * - with no frame in either direction for `idleTimeoutMs` (the client's pings count) the TCP connection is
 *   destroyed without a close frame, as the server's HTTP layer does with idle connections.
 */
export function serveWebSocketSession(
  ws: WebSocket,
  socket: Duplex,
  channel: WebSocketChannel<unknown>,
  state: ParticipantState,
  options: SessionOptions,
): WebSocketSession {
  const abort = new AbortController();
  // the idle deadline moves with every frame; its timer is set again only when it fires early, so a frame
  // costs a clock read, not a timer
  let idleTimer: ReturnType<typeof setTimeout> | undefined;
  let lastActivity = Date.now();
  const checkIdle = (): void => {
    idleTimer = undefined;
    if (abort.signal.aborted) return;
    const quiet = Date.now() - lastActivity;
    if (quiet >= options.idleTimeoutMs) socket.destroy();
    else armIdle(options.idleTimeoutMs - quiet);
  };
  const armIdle = (ms: number): void => {
    idleTimer = setTimeout(checkIdle, ms);
    idleTimer.unref();
  };
  const activity = () => {
    lastActivity = Date.now();
  };
  if (options.idleTimeoutMs > 0) armIdle(options.idleTimeoutMs);
  const sink = new FrameSink(ws, socket, abort.signal, activity);
  const closed = new Promise<void>((resolve) => {
    ws.once('close', () => {
      if (idleTimer !== undefined) clearTimeout(idleTimer);
      abort.abort();
      resolve();
    });
  });
  ws.on('error', () => socket.destroy());
  ws.on('ping', activity);
  ws.on('pong', activity);

  const fail = (error: unknown) => {
    if (abort.signal.aborted || sink.ended) return;
    const e = error instanceof SandboxError ? error : SandboxError.jsonLayer(ErrorDefs.LEDGER_API_INTERNAL_ERROR, String(error instanceof Error ? error.message : error));
    const body = e.frameBody(options.traceId, state.participantId);
    if (body) void sink.send(JSON.stringify(body));
    sink.close(1000);
  };

  let started = false;
  ws.on('message', (data: RawData, isBinary: boolean) => {
    activity();
    if (started) return;
    started = true;
    const frame = text(data);
    let request: unknown;
    try {
      if (isBinary) throw frameDecodeError(`<${frame.length} bytes of binary data>`, 'a binary frame, expected a text frame with JSON');
      let value: unknown;
      try {
        value = JSON.parse(frame);
      } catch (e) {
        throw frameDecodeError(frame, `Error(${frame},${e instanceof Error ? e.message : 'malformed JSON'})`);
      }
      try {
        request = channel.decode(value);
      } catch (e) {
        if (e instanceof SandboxError && e.spec.kind === 'text') throw frameDecodeError(frame, `Error(${frame},${e.spec.text})`);
        throw e;
      }
    } catch (e) {
      fail(e);
      return;
    }
    channel
      .run(request, { state, claims: options.claims, sink, signal: abort.signal })
      .then(() => {
        if (abort.signal.aborted || sink.ended) return;
        if (sink.finish()) return;
        sink.close(1000);
      }, fail);
  });

  return {
    info: () => ({ path: channel.path, ...sink.stats() }),
    terminate() {
      abort.abort();
      socket.destroy();
    },
    closed,
  };
}
