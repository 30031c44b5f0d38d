import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import type { FaultQueue } from '../faults/fault-queue.js';
import { faultPiece } from '../faults/fault-piece.js';
import type { UpdateFault } from '../faults/update-fault.js';
import type { ElementSink } from '../read/read-log.js';
import type { UpdateRenderer } from '../render/create-update-renderer.js';

/** Bytes handed to the socket but not yet flushed above which the stream pauses. */
export const highWaterBytes = 256 * 1024;

/** What a {@link FrameSink} reports about itself (`Sandbox.webSocketSessions()`). */
export interface FrameSinkStats {
  readonly framesSent: number;
  /** Frame bytes the socket has accepted but not yet written out. */
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

/** Builds the bytes of one unmasked server text frame carrying `payload` (for the `truncate` fault). */
function textFrame(payload: Buffer): Buffer {
  const n = payload.length;
  const head = n < 126 ? Buffer.from([0x81, n]) : n < 65536 ? Buffer.from([0x81, 126, n >> 8, n & 0xff]) : Buffer.alloc(10);
  if (n >= 65536) {
    head[0] = 0x81;
    head[1] = 127;
    head.writeBigUInt64BE(BigInt(n), 2);
  }
  return Buffer.concat([head, payload]);
}

/**
 * Sends a stream's elements as WebSocket text frames, one element per frame, and is the stream's
 * backpressure: it counts the bytes of frames the socket has not written out yet (the `ws` send
 * callback fires once a frame has left the process) and, above {@link highWaterBytes}, makes the
 * producer wait until they drain below half of it. A client that stops reading therefore stops the
 * producer once its TCP window and the kernel buffers are full: the sandbox holds at most about
 * 256 KiB per stream, however long the client pauses.
 *
 * A fault armed with {@link FrameSink.armFault} is applied after its `afterElements` elements: the
 * element faults send their piece as a frame; `truncate` writes the first half of the next frame raw and
 * destroys the socket; `drop` destroys it; `close-1011` closes with 1011 "internal error"; `stall` stops
 * sending and never resumes. After the last four the sink is `ended` and swallows everything.
 */
export class FrameSink implements ElementSink {
  private sent = 0;
  private buffered = 0;
  private waiter: (() => void) | undefined;
  private written = 0;
  private previous: { json: string; offset: number } | undefined;
  private armed: ArmedFault | undefined;
  private stopped = false;

  constructor(
    private readonly ws: WebSocket,
    private readonly socket: Duplex,
    private readonly signal: AbortSignal,
    private readonly onActivity: () => void,
  ) {
    signal.addEventListener('abort', () => this.wake(), { once: true });
  }

  /** True once a terminal fault ended the stream (nothing more is sent). */
  get ended(): boolean {
    return this.stopped;
  }

  /** The sink's counters. */
  stats(): FrameSinkStats {
    return { framesSent: this.sent, bufferedBytes: this.buffered, paused: this.waiter !== undefined };
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
    return this.send(json);
  }

  idle(): void {}

  /** Applies a fault that is still due at the end of a bounded stream; true when the stream was ended by it. */
  finish(): boolean {
    const armed = this.armed;
    if (armed && !this.stopped && (armed.fault.kind !== 'duplicate-offset' || this.written > 0)) this.fire(armed, undefined);
    return this.stopped;
  }

  /** Sends one text frame (an error frame, say) outside the element count. */
  send(text: string): void | Promise<void> {
    if (this.stopped || this.ws.readyState !== this.ws.OPEN) return;
    const bytes = Buffer.byteLength(text);
    this.buffered += bytes;
    this.sent++;
    this.onActivity();
    this.ws.send(text, () => {
      this.buffered -= bytes;
      if (this.buffered <= highWaterBytes / 2) this.wake();
    });
    if (this.buffered <= highWaterBytes) return;
    return new Promise<void>((resolve) => {
      this.waiter = resolve;
    });
  }

  private wake(): void {
    const w = this.waiter;
    this.waiter = undefined;
    w?.();
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
      this.socket.destroy();
      return;
    }
    if (kind === 'close-1011') {
      this.stopped = true;
      this.ws.close(1011, 'internal error');
      return;
    }
    if (kind === 'stall') {
      this.stopped = true;
      return;
    }
    const { piece, cut } = faultPiece(kind, armed.renderer, this.previous, next, armed.beginExclusive);
    if (!cut) {
      void this.send(piece);
      return;
    }
    this.stopped = true;
    const frame = textFrame(Buffer.from(next ?? piece));
    this.socket.write(frame.subarray(0, Math.max(2, Math.floor(frame.length / 2))), () => this.socket.destroy());
  }
}
