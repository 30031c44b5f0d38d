import type { Claims } from '../auth/claims.js';
import type { ParticipantState } from '../participant/participant-state.js';
import type { FrameSink } from './frame-sink.js';

/** What a channel's stream gets to run with. */
export interface ChannelContext {
  readonly state: ParticipantState;
  /** The caller's claims; throws the redacted 401/403 (or `INVALID_TOKEN`), like the HTTP routes. */
  claims(): Promise<Claims>;
  /** Where the stream's elements go: one text frame each, with backpressure. */
  readonly sink: FrameSink;
  /** Aborted when the client closes, the connection drops or the sandbox stops. */
  readonly signal: AbortSignal;
}

/**
 * A WebSocket endpoint of the JSON API (`GET <path>` with an upgrade): the client sends one request
 * frame, the channel answers with one frame per element. Every channel is served the same way (see
 * `serveWebSocketSession`): the request frame is parsed as JSON and given to `decode` (a decode failure
 * becomes the server's frame-decoding error frame), then `run` streams. When `run` resolves the server
 * closes with 1000; when it throws a `SandboxError` that error becomes one error frame, then 1000.
 */
export interface WebSocketChannel<Request> {
  /** The path, e.g. `/v2/updates`. */
  readonly path: string;
  /** Decodes the parsed request frame; throws the sandbox's decode failure. */
  decode(value: unknown): Request;
  /** Validates and streams; resolves when a bounded stream is done or `ctx.signal` aborts. */
  run(request: Request, ctx: ChannelContext): Promise<void>;
}
