import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import type { FaultQueue } from '../faults/fault-queue.js';
import { faultPiece } from '../faults/fault-piece.js';
import type { UpdateFault } from '../faults/update-fault.js';
import type { ElementSink } from '../read/read-log.js';
import type { UpdateRenderer } from '../render/create-update-renderer.js';
import { writeUtf8Pieces } from '../render/write-utf8-pieces.js';

/** Frame bytes collected before they are handed to the socket in one write. */
export const flushBytes = 64 * 1024;
/** The collecting buffer: a frame that fits in what is left of it is encoded straight into it. */
const chunkBytes = 128 * 1024;

/** What a {@link FrameSink} reports about itself (`Sandbox.webSocketSessions()`). */
export interface FrameSinkStats {
  readonly framesSent: number;
  /** Frame bytes collected or handed to the socket but not yet written out. */
  readonly bufferedBytes: number;
  /** True while the producer waits for the socket to drain. */
  readonly paused: boolean;
}

/** How a fault-bearing stream renders its fault pieces. */
interface ArmedFault {
  readonly fault: UpdateFault;
  readonly queue: FaultQueue;
  readonly renderer: UpdateRenderer;
  readonly beginExclusive: number;
}

/** The length of the header of an unmasked frame whose payload is `n` bytes (RFC 6455 §5.2). */
function headerLength(n: number): number {
  return n < 126 ? 2 : n < 65536 ? 4 : 10;
}

/** Writes the header of an unmasked, final text frame of `n` payload bytes at `at`; returns its length. */
function writeTextHeader(buf: Buffer, at: number, n: number): number {
  buf[at] = 0x81; // FIN, opcode 1 (text)
  if (n < 126) {
    buf[at + 1] = n;
    return 2;
  }
  if (n < 65536) {
    buf[at + 1] = 126;
    buf.writeUInt16BE(n, at + 2);
    return 4;
  }
  buf[at + 1] = 127;
  buf.writeBigUInt64BE(BigInt(n), at + 2);
  return 10;
}

/** Builds the bytes of one unmasked server text frame carrying `payload` (for the `truncate` fault). */
function textFrame(payload: Buffer): Buffer {
  const head = Buffer.allocUnsafe(headerLength(payload.length));
  writeTextHeader(head, 0, payload.length);
  return Buffer.concat([head, payload]);
}

/**
 * Sends a stream's elements as WebSocket text frames, one element per frame, and is the stream's
 * backpressure.
 *
 * The frames are built here rather than by `ws.send()` (the same bytes: unmasked, final, no extension):
 * each element is UTF-8-encoded, behind its header, straight into a collecting buffer that is handed to
 * the socket in one write once it holds {@link flushBytes}, when the read waits for news
 * ({@link FrameSink.idle}), before a close and before a fault. One write per frame (a `writev` system
 * call each, with a callback and a byte count) was most of the sandbox's time when a client caught up
 * (docs/benchmarks.md#websocket-catch-up). A write the socket cannot take at once makes the producer
 * wait for `drain`: a client that stops reading stops the producer once its TCP window and the kernel
 * buffers are full, and the sandbox holds at most about {@link flushBytes} plus one element per stream,
 * however long the client pauses. Frames `ws` itself writes (the echo of a close, pongs) go to the same
 * socket between two writes of this sink, so never inside a frame.
 *
 * A fault armed with {@link FrameSink.armFault} is applied after its `afterElements` elements (the
 * frames before it are written out first): the element faults send their piece as a frame; `truncate`
 * writes the first half of the next frame raw and destroys the socket; `drop` destroys it; `close-1011`
 * closes with 1011 "internal error"; `stall` stops sending and never resumes. After the last four the
 * sink is `ended` and swallows everything.
 */
export class FrameSink implements ElementSink {
  private sent = 0;
  private buf = Buffer.allocUnsafe(chunkBytes);
  private pos = 0;
  private waiting = false;
  private written = 0;
  private previous: { json: string; offset: number } | undefined;
  private armed: ArmedFault | undefined;
  private stopped = false;
  private renderer: UpdateRenderer | undefined;

  constructor(
    private readonly ws: WebSocket,
    private readonly socket: Duplex,
    private readonly signal: AbortSignal,
    private readonly onActivity: () => void,
  ) {}

  /** True once a terminal fault ended the stream (nothing more is sent). */
  get ended(): boolean {
    return this.stopped;
  }

  /** The sink's counters. */
  stats(): FrameSinkStats {
    return { framesSent: this.sent, bufferedBytes: this.pos + this.socket.writableLength, paused: this.waiting };
  }

  /**
   * The renderer of the stream's elements: each element it rendered is encoded in the pieces its text cuts
   * give (the same bytes, cheaper for non-ASCII text; `writeUtf8Pieces`).
   */
  encodeWith(renderer: UpdateRenderer): void {
    this.renderer = renderer;
  }

  /** Applies the queue's next WebSocket fault (if any) to this stream. */
  armFault(queue: FaultQueue, renderer: UpdateRenderer, beginExclusive: number): void {
    const fault = queue.peek('websocket');
    if (fault) this.armed = { fault, queue, renderer, beginExclusive };
  }

  element(json: string, offset: number): void | Promise<void> {
    if (this.stopped) return this.stall();
    const armed = this.armed;
    if (armed && this.written === armed.fault.afterElements && (armed.fault.kind !== 'duplicate-offset' || this.written > 0)) {
      this.fire(armed, json);
      if (this.stopped) return this.stall();
    }
    this.previous = { json, offset };
    this.written++;
    return this.send(json, this.renderer?.textCuts(json));
  }

  /** The read waits for news: what is collected goes out now. */
  idle(): void | Promise<void> {
    return this.flush();
  }

  /** Applies a fault that is still due at the end of a bounded stream; true when the stream was ended by it. */
  finish(): boolean {
    const armed = this.armed;
    if (armed && !this.stopped && (armed.fault.kind !== 'duplicate-offset' || this.written > 0)) this.fire(armed, undefined);
    return this.stopped;
  }

  /** Writes out what is collected, then starts the close handshake with `code` (and `reason`). */
  close(code: number, reason?: string): void {
    void this.flush();
    this.ws.close(code, reason);
  }

  /** Sends one text frame (an error frame, say) outside the element count; `cuts`: where to cut its encoding (`writeUtf8Pieces`). */
  send(text: string, cuts?: readonly number[]): void | Promise<void> {
    if (this.stopped || this.ws.readyState !== this.ws.OPEN) return;
    this.sent++;
    // a UTF-16 unit takes 1 to 3 UTF-8 bytes: where both bounds give the same header, no count is needed
    const header = headerLength(text.length) === headerLength(text.length * 3) ? headerLength(text.length) : headerLength(Buffer.byteLength(text));
    let accepted = true;
    if (this.pos + header + text.length * 3 > this.buf.length) {
      accepted = this.handOver();
      if (header + text.length * 3 > this.buf.length) return this.sendLarge(text, accepted);
    }
    const n = cuts === undefined ? this.buf.write(text, this.pos + header) : writeUtf8Pieces(this.buf, this.pos + header, text, cuts);
    writeTextHeader(this.buf, this.pos, n);
    this.pos += header + n;
    if (this.pos >= flushBytes) return this.flush();
    return accepted ? undefined : this.drained();
  }

  /** A frame too large for the collecting buffer: its header and its text written on their own. */
  private sendLarge(text: string, accepted: boolean): void | Promise<void> {
    if (this.socket.destroyed) return;
    const n = Buffer.byteLength(text);
    const head = Buffer.allocUnsafe(headerLength(n));
    writeTextHeader(head, 0, n);
    this.socket.cork();
    this.socket.write(head);
    const more = this.socket.write(text);
    this.socket.uncork();
    this.onActivity();
    return more && accepted ? undefined : this.drained();
  }

  /** Hands what is collected to the socket; false when the socket asks the producer to wait. */
  private handOver(): boolean {
    if (this.pos === 0) return true;
    const chunk = this.buf.subarray(0, this.pos);
    this.buf = Buffer.allocUnsafe(chunkBytes);
    this.pos = 0;
    // frames collected before the peer's close frame arrived are not sent after the echo of it
    if (this.socket.destroyed || this.ws.readyState !== this.ws.OPEN) return true;
    this.onActivity();
    return this.socket.write(chunk);
  }

  private flush(): void | Promise<void> {
    return this.handOver() ? undefined : this.drained();
  }

  /** Resolves once the socket drained, closed, or the stream was torn down. */
  private drained(): Promise<void> {
    this.waiting = true;
    return new Promise<void>((resolve) => {
      const done = () => {
        this.socket.off('drain', done);
        this.socket.off('close', done);
        this.signal.removeEventListener('abort', done);
        this.waiting = false;
        resolve();
      };
      this.socket.on('drain', done);
      this.socket.on('close', done);
      this.signal.addEventListener('abort', done, { once: true });
    });
  }

  /** A producer that must not go on: wait until the stream is torn down. */
  private stall(): Promise<void> {
    if (this.signal.aborted) return Promise.resolve();
    return new Promise((resolve) => this.signal.addEventListener('abort', () => resolve(), { once: true }));
  }

  private fire(armed: ArmedFault, next: string | undefined): void {
    this.armed = undefined;
    armed.queue.consume(armed.fault);
    const kind = armed.fault.kind;
    if (kind === 'drop') {
      this.stopped = true;
      this.handOver();
      this.socket.destroy();
      return;
    }
    if (kind === 'close-1011') {
      this.stopped = true;
      this.close(1011, 'internal error');
      return;
    }
    if (kind === 'stall') {
      this.stopped = true;
      this.handOver();
      return;
    }
    const { piece, cut } = faultPiece(kind, armed.renderer, this.previous, next, armed.beginExclusive);
    if (!cut) {
      void this.send(piece);
      return;
    }
    this.stopped = true;
    this.handOver();
    const frame = textFrame(Buffer.from(next ?? piece));
    this.socket.write(frame.subarray(0, Math.max(2, Math.floor(frame.length / 2))), () => this.socket.destroy());
  }
}
