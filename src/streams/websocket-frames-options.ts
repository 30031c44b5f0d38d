import type { Observable } from 'rxjs';

/** Options of {@link observeWebSocketFrames}. */
export interface WebSocketFramesOptions {
  /**
   * What the socket closing means when the stream did not end otherwise: `undefined` completes the
   * Observable, an error fails it. Called with the close code (1005 when the peer sent none, 1006 for a
   * connection lost without a close frame) and the reason text.
   */
  readonly closeOutcome: (code: number, reason: string) => Error | undefined;
  /** Maps an `error` event of the socket (a reset connection, a broken frame) to the error to fail with. */
  readonly socketError: (error: unknown) => Error;
  /**
   * Flow control: while the latest value is `true` the socket is paused (`pause()`: nothing more is read, so
   * TCP pushes back on the sender); `false` resumes it. Without it the socket is never paused.
   */
  readonly paused?: Observable<boolean> | undefined;
  /** Send a ping this often (ms) and check the silence then; 0 disables both. Default 0. */
  readonly pingIntervalMs?: number | undefined;
  /**
   * Fail with `silenceError()` when no frame at all (data or pong) has arrived for this long (ms) while the
   * socket was not paused; checked at each ping. 0 disables it. Default 0.
   */
  readonly silenceTimeoutMs?: number | undefined;
  /** The error for a socket that stayed silent too long. Required with `silenceTimeoutMs`. */
  readonly silenceError?: ((silentMs: number) => Error) | undefined;
  /** Called with the size of each data frame's payload as it is received (for metrics). */
  readonly onBytes?: ((bytes: number) => void) | undefined;
  /** How long after asking to close the socket it is destroyed if the peer has not closed yet. Default 2 000 ms. */
  readonly closeGraceMs?: number | undefined;
}
