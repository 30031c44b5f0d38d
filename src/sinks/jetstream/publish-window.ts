import { asyncScheduler, type SchedulerLike } from 'rxjs';
import { ErrorCodes } from '../../errors/error-codes.js';
import { LedgerRxError } from '../../errors/ledger-rx-error.js';
import { scheduledSleep } from '../scheduled-sleep.js';

/** One message to publish: an element at `offset`, with its subject, bytes and headers. */
export interface WindowMessage {
  readonly offset: number;
  readonly subject: string;
  readonly data: Uint8Array;
  readonly headers: readonly (readonly [string, string])[];
}

/** The stream's last message as the publisher reads it: its sequence and the offset it carries. */
export interface StreamTip {
  readonly seq: number;
  readonly offset: number;
}

/** How the window reaches the stream (see `JetStreamSink`; a fake in tests). */
export interface PublishPort {
  /**
   * Publishes `message` (with `Nats-Msg-Id` derived from its offset) expecting the stream's last sequence
   * to be `expectedLastSeq` when given; resolves with the stored sequence and whether it was a duplicate.
   */
  publish(message: WindowMessage, expectedLastSeq: number | undefined): Promise<{ readonly seq: number; readonly duplicate: boolean }>;
  /** The stream's last message of this publisher (`undefined`: none yet). */
  tip(): Promise<StreamTip | undefined>;
  /** Whether a failed publish or tip may succeed when tried again (timeouts, no responders, reconnects). */
  retryable(error: unknown): boolean;
  /** Whether the server refused a publish because the stream's last sequence was not the expected one. */
  wrongLastSequence(error: unknown): boolean;
  /**
   * Who stored the message at `seq` that answered this publisher's first send of `message` as a duplicate:
   * `yields: false` only when it is a publisher that ranks after this one (it started later) and the stored
   * message has `message`'s bytes; anything else (an earlier publisher, one that cannot be told, other
   * bytes) yields. `who` describes the other publisher for the error message.
   */
  rival(seq: number, message: WindowMessage): Promise<{ readonly yields: boolean; readonly who: string }>;
}

/** What the window reports (see `JetStreamSinkStatus`). */
export type PublishWindowStatus =
  | { readonly type: 'recovering'; readonly error: unknown; readonly inFlight: number }
  | { readonly type: 'resynced'; readonly tip: StreamTip | undefined; readonly republish: number; readonly attempt: number }
  /** A later publisher stored `offset` first (the same bytes): this one keeps publishing, the other is refused. */
  | { readonly type: 'rival'; readonly offset: number; readonly who: string };

/** Options of {@link PublishWindow}. */
export interface PublishWindowOptions {
  /** Publishes in flight at most (1: one after the other). */
  readonly size: number;
  /**
   * Send the expected last sequence with every publish (the stream holds only this publisher's subjects):
   * then many publishes can be in flight and none is stored out of order.
   */
  readonly expectSequence: boolean;
  /** Give up when recovering makes no progress for this long, in ms. */
  readonly retryForMs: number;
  readonly onStatus?: ((status: PublishWindowStatus) => void) | undefined;
  /** Backoff between attempts to read the stream's tip while recovering, in ms (doubling, capped at 2 s). Default 100. */
  readonly initialDelayMs?: number;
  /**
   * The clock of the retry window (`retryForMs` without progress) and of the backoff between tip reads.
   * Default `asyncScheduler`; a virtual-time scheduler in tests.
   */
  readonly scheduler?: SchedulerLike | undefined;
}

interface Entry {
  readonly message: WindowMessage;
  /** Sent at least once (a duplicate answer to the first send means another publisher stored it). */
  sent: boolean;
  acked: boolean;
  inFlight: boolean;
}

const conflict = (message: string) => new LedgerRxError(ErrorCodes.SINK_CONFLICT, message);

/**
 * The in-order publishing engine of `JetStreamSink`: up to `size` publishes in flight, exactly once, in
 * offset order, surviving server restarts, leader changes and reconnects.
 *
 * Each message is published with `Nats-Msg-Id` and, with `expectSequence`, the stream sequence the
 * previous message is predicted to get (`tip.seq + n`), so the server stores a message only right after
 * its predecessor: when one publish fails, every later one in flight is refused too, never stored out of
 * order. On a failure that may pass (timeout, no responders, connection lost, or the refusal of a message
 * whose predecessor was not acknowledged yet) the window stops sending, waits for everything in flight to
 * settle, reads the stream's tip (the offset in its last message), counts every message up to that offset
 * as stored, and publishes the rest again in order from there — the tip is the truth, so nothing is lost
 * or stored twice (the message id dedupes a late arrival as well).
 *
 * Refusals that mean another writer are fatal with `SINK_CONFLICT`: a wrong-sequence refusal while every
 * earlier message was acknowledged, a duplicate answer to a message sent for the first time (unless the
 * copy is another publisher's that started later, which yields instead: see `PublishPort.rival`), a tip
 * beyond everything sent. A tip behind what was acknowledged (the stream lost messages) or no progress
 * for `retryForMs` is `SINK_FAILED`. After a fatal error every call rejects with it.
 */
export class PublishWindow {
  private readonly port: PublishPort;
  private readonly options: PublishWindowOptions;
  /**
   * Messages in offset order from `head` on: `queue[head…]` are not acknowledged as a run yet, those before
   * `next` were sent since the last resync (in flight or acknowledged), those from `next` on wait to be sent.
   * The acknowledged prefix is dropped in chunks (`compact`), so each message costs O(1).
   */
  private queue: Entry[] = [];
  private head = 0;
  private next = 0;
  /** Queued messages never sent yet; `whenSent` waits for 0. */
  private unsent = 0;
  private sentWaiters: { resolve: () => void; reject: (e: unknown) => void }[] = [];
  private inFlight = 0;
  private nextSeq = 1;
  private ackedOffset = -1;
  private highestSent = -1;
  private recovering = false;
  private readonly scheduler: SchedulerLike;
  private lastProgressAt: number;
  private failed: { error: unknown } | undefined;
  private waiters: { offset: number; resolve: () => void; reject: (e: unknown) => void }[] = [];
  private drained: (() => void) | undefined;

  constructor(port: PublishPort, options: PublishWindowOptions) {
    this.port = port;
    this.options = options;
    this.scheduler = options.scheduler ?? asyncScheduler;
    this.lastProgressAt = this.scheduler.now();
  }

  /** The fatal error, if any. */
  get failure(): unknown {
    return this.failed?.error;
  }

  /**
   * Reads the stream's tip (trying again while the failure may pass, as when recovering: a cluster electing
   * a leader, a server restarting) and starts after it; resolves with the tip. Rejects with the fatal error
   * or with `signal`'s reason.
   */
  async start(signal?: AbortSignal): Promise<StreamTip | undefined> {
    const tip = await this.readTip(signal);
    if (this.failed) throw this.failed.error;
    this.begin(tip);
    return tip;
  }

  /** Starts after the stream's `tip` (read by the caller). */
  begin(tip: StreamTip | undefined): void {
    this.nextSeq = (tip?.seq ?? 0) + 1;
    this.ackedOffset = tip?.offset ?? -1;
    this.highestSent = this.ackedOffset;
  }

  /**
   * Queues `message` (offsets strictly increasing) and sends it when the window has room; throws the fatal
   * error. {@link PublishWindow.whenSent} tells when everything queued went out.
   */
  add(message: WindowMessage): void {
    if (this.failed) throw this.failed.error;
    this.queue.push({ message, sent: false, acked: false, inFlight: false });
    this.unsent++;
    this.pump();
  }

  /**
   * Resolves once every message queued so far has been sent at least once, so the caller waits while the
   * window is full or recovering; rejects with the fatal error.
   */
  whenSent(): Promise<void> {
    if (this.failed) return Promise.reject(this.failed.error);
    if (this.unsent === 0) return Promise.resolve();
    return new Promise((resolve, reject) => this.sentWaiters.push({ resolve, reject }));
  }

  /** Resolves once every message up to `offset` is acknowledged (stored); rejects with the fatal error. */
  acknowledged(offset: number): Promise<void> {
    if (this.failed) return Promise.reject(this.failed.error);
    if (this.ackedOffset >= offset) return Promise.resolve();
    return new Promise((resolve, reject) => this.waiters.push({ offset, resolve, reject }));
  }

  /** Fails the window (a closing sink): pending calls reject with `error`. */
  abort(error: unknown): void {
    this.fail(error);
  }

  private pump(): void {
    if (this.failed || this.recovering) return;
    while (this.next < this.queue.length && this.inFlight < this.options.size) {
      const entry = this.queue[this.next++] as Entry;
      if (!entry.inFlight && !entry.acked) this.send(entry);
    }
  }

  private send(entry: Entry): void {
    const expected = this.options.expectSequence ? this.nextSeq - 1 : undefined;
    const predicted = this.nextSeq++;
    const firstSend = !entry.sent;
    entry.inFlight = true;
    entry.sent = true;
    this.inFlight++;
    this.highestSent = Math.max(this.highestSent, entry.message.offset);
    if (firstSend && --this.unsent === 0 && this.sentWaiters.length > 0) {
      const waiters = this.sentWaiters;
      this.sentWaiters = [];
      for (const w of waiters) w.resolve();
    }
    this.port.publish(entry.message, expected).then(
      (ack) => this.settled(entry, () => this.onAck(entry, ack, predicted, firstSend)),
      (error: unknown) => this.settled(entry, () => this.onError(entry, error)),
    );
  }

  private settled(entry: Entry, then: () => void): void {
    entry.inFlight = false;
    this.inFlight--;
    if (!this.failed) then();
    if (this.inFlight === 0) this.drained?.();
  }

  private onAck(entry: Entry, ack: { seq: number; duplicate: boolean }, predicted: number, firstSend: boolean): void {
    if (ack.duplicate && firstSend) {
      this.onRival(entry, ack.seq, predicted);
      return;
    }
    if (this.options.expectSequence && !ack.duplicate && ack.seq !== predicted && !this.recovering) {
      this.fail(conflict(`offset ${entry.message.offset} was stored at sequence ${ack.seq}, not ${predicted}: another publisher writes to the stream`));
      return;
    }
    this.stored(entry);
  }

  private stored(entry: Entry): void {
    entry.acked = true;
    this.lastProgressAt = this.scheduler.now();
    this.advance();
    this.pump();
  }

  /**
   * The first send of `entry` was answered as a duplicate: another publisher stored it (at `seq`). Two
   * publishers of one ledger send the same messages (same ids, bytes and expected sequences), so each sees
   * the other's copies as duplicates whenever the other was faster; failing on every duplicate would let an
   * unlucky interleaving fail both. Precedence settles it the same way on both sides: the publisher that
   * started later fails with `SINK_CONFLICT` on the first duplicate it meets, the earlier one counts the
   * later one's copy (same bytes, at the predicted sequence) as stored and carries on. Sends go on
   * meanwhile; a copy with other bytes or at another sequence is a conflict for both.
   */
  private onRival(entry: Entry, seq: number, predicted: number): void {
    const offset = entry.message.offset;
    const refuse = (why: string) => this.fail(conflict(`offset ${offset} was already in the stream when first published (${why}): another publisher writes to it`));
    if (this.options.expectSequence && seq !== predicted) {
      refuse(`at sequence ${seq}, not ${predicted}`);
      return;
    }
    this.port.rival(seq, entry.message).then(
      (rival) => {
        if (this.failed || entry.acked) return;
        if (rival.yields) {
          refuse(`stored by ${rival.who}`);
          return;
        }
        this.options.onStatus?.({ type: 'rival', offset, who: rival.who });
        this.stored(entry);
      },
      (error: unknown) => refuse(`whose writer could not be read: ${describe(error)}`),
    );
    this.pump();
  }

  private onError(entry: Entry, error: unknown): void {
    if (this.port.wrongLastSequence(error)) {
      const earlierPending = this.pending().some((e) => e !== entry && !e.acked && e.message.offset < entry.message.offset && e.sent);
      if (!earlierPending && !this.recovering) {
        this.fail(conflict(`the stream moved under offset ${entry.message.offset} (wrong last sequence): another publisher writes to it`));
        return;
      }
    } else if (!this.port.retryable(error)) {
      this.fail(new LedgerRxError(ErrorCodes.SINK_FAILED, `publishing offset ${entry.message.offset} failed: ${describe(error)}`, { cause: error }));
      return;
    }
    if (this.scheduler.now() - this.lastProgressAt > this.options.retryForMs) {
      this.fail(new LedgerRxError(ErrorCodes.SINK_FAILED, `no publish succeeded for ${this.options.retryForMs} ms: ${describe(error)}`, { cause: error }));
      return;
    }
    if (!this.recovering) {
      this.recovering = true;
      this.options.onStatus?.({ type: 'recovering', error, inFlight: this.inFlight });
      void this.recover();
    }
  }

  /** Moves past the acknowledged head of the queue and wakes whoever waits for it. */
  private advance(): void {
    const start = this.head;
    while (this.head < this.queue.length && (this.queue[this.head] as Entry).acked) {
      this.ackedOffset = (this.queue[this.head] as Entry).message.offset;
      this.head++;
    }
    if (this.head === start) return;
    if (this.head >= 1_024 && this.head * 2 >= this.queue.length) this.compact();
    this.wake();
  }

  /** Drops the acknowledged prefix (amortised: it has at least as many entries as are kept). */
  private compact(): void {
    this.queue = this.queue.slice(this.head);
    this.next -= this.head;
    this.head = 0;
  }

  /** The messages not acknowledged as a run yet. */
  private pending(): Entry[] {
    return this.queue.slice(this.head);
  }

  private wake(): void {
    if (this.waiters.length === 0) return;
    const keep: typeof this.waiters = [];
    for (const w of this.waiters) {
      if (w.offset <= this.ackedOffset) w.resolve();
      else keep.push(w);
    }
    this.waiters = keep;
  }

  private async recover(): Promise<void> {
    if (this.inFlight > 0) await new Promise<void>((resolve) => (this.drained = resolve));
    this.drained = undefined;
    let attempts = 0;
    const tip = await this.readTip(undefined, () => attempts++).catch(() => undefined);
    if (!this.failed) this.resync(tip, attempts + 1);
  }

  /**
   * The stream's tip, read again after failures that may pass (backoff doubling from `initialDelayMs` to
   * 2 s) until `retryForMs` passed without progress; a failure that cannot pass fails the window. Rejects
   * (after failing the window) or with `signal`'s reason.
   */
  private async readTip(signal?: AbortSignal, onFailedAttempt?: () => void): Promise<StreamTip | undefined> {
    const started = this.scheduler.now();
    let delay = this.options.initialDelayMs ?? 100;
    for (;;) {
      signal?.throwIfAborted();
      if (this.failed) throw this.failed.error;
      try {
        return await this.port.tip();
      } catch (error) {
        if (!this.port.retryable(error)) {
          throw this.fail(new LedgerRxError(ErrorCodes.SINK_FAILED, `cannot read the stream's last message: ${describe(error)}`, { cause: error }));
        }
        if (this.scheduler.now() - Math.max(started, this.lastProgressAt) > this.options.retryForMs) {
          throw this.fail(new LedgerRxError(ErrorCodes.SINK_FAILED, `the stream stayed unreachable for ${this.options.retryForMs} ms: ${describe(error)}`, { cause: error }));
        }
        onFailedAttempt?.();
        await scheduledSleep(this.scheduler, delay, signal);
        delay = Math.min(delay * 2, 2_000);
      }
    }
  }

  private resync(tip: StreamTip | undefined, attempt: number): void {
    const offset = tip?.offset ?? -1;
    if (offset > this.highestSent) {
      this.fail(conflict(`the stream's last message is offset ${offset}, beyond the ${this.highestSent} this publisher sent: another publisher writes to it`));
      return;
    }
    if (offset < this.ackedOffset) {
      this.fail(new LedgerRxError(ErrorCodes.SINK_FAILED, `the stream's last message is offset ${offset}, behind the acknowledged ${this.ackedOffset}: the stream lost messages`));
      return;
    }
    for (const entry of this.pending()) if (entry.message.offset <= offset) entry.acked = true;
    this.advance();
    this.compact();
    this.next = 0; // everything not acknowledged goes out again, in order
    this.nextSeq = (tip?.seq ?? 0) + 1;
    this.recovering = false;
    this.options.onStatus?.({ type: 'resynced', tip, republish: this.queue.filter((e) => e.sent).length, attempt });
    this.pump();
  }

  /** Fails the window with `error` unless it failed already; returns the fatal error. */
  private fail(error: unknown): unknown {
    if (this.failed) return this.failed.error;
    this.failed = { error };
    for (const w of [...this.waiters, ...this.sentWaiters]) w.reject(error);
    this.waiters = [];
    this.sentWaiters = [];
    return error;
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
