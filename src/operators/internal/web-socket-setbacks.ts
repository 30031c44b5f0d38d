import type { Transport } from '../../updates/transport.js';

/** The last time a read with `'auto'` gave up the WebSocket of a client (its scheduler's time), and why. */
export interface WebSocketSetback {
  readonly at: number;
  readonly reason: string;
}

/** Per source (a client): held weakly, so a client that is dropped takes its memory with it. */
const setbacks = new WeakMap<object, WebSocketSetback>();

/**
 * Remembers that a read of `source` with `'auto'` fell back from `from` at `at` because of `reason`, so that
 * the reads of the same client that start within the cool-off skip the WebSocket (`startingTransportChoice`)
 * instead of waiting for a handshake the path will not answer (docs/transports.md). Only the WebSocket is
 * remembered: it is the transport a path (a proxy) may not carry, and it is the same for every read;
 * another transport's refusal is one quick answer, and belongs to its endpoint.
 */
export function rememberFallback(source: object, from: Exclude<Transport, 'auto'>, reason: string, at: number): void {
  if (from === 'websocket') setbacks.set(source, { at, reason });
}

/**
 * The WebSocket setback of `source` that is still within `coolOffMs` at `now`, if any. One noted in the
 * future (a read on another scheduler's clock) does not count: the WebSocket is tried.
 */
export function recentWebSocketSetback(source: object, now: number, coolOffMs: number): WebSocketSetback | undefined {
  const setback = setbacks.get(source);
  return setback !== undefined && now >= setback.at && now - setback.at < coolOffMs ? setback : undefined;
}
