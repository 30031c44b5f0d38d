/**
 * The part of an open `ws` WebSocket that {@link observeWebSocketFrames} uses: events, flow control, pings
 * and closing. Declared here, rather than importing `ws`'s types, so that the streams layer (and the
 * published types) do not depend on `ws`, and tests can pass a fake.
 */
export interface FrameSocket {
  /** `ws`'s ready state: 1 open, 2 closing, 3 closed. */
  readonly readyState: number;
  /**
   * Events used: `message` (data: `Buffer`, `ArrayBuffer`, `Buffer[]` or string; isBinary), `close` (code,
   * reason as bytes), `error` (an `Error`), `pong`.
   */
  on(event: string, listener: (...args: never[]) => void): unknown;
  off(event: string, listener: (...args: never[]) => void): unknown;
  /** Stops reading from the connection (frames already read may still be delivered). */
  pause(): void;
  /** Reads from the connection again. */
  resume(): void;
  ping(): void;
  close(code?: number, reason?: string): void;
  /** Destroys the connection at once. */
  terminate(): void;
}
