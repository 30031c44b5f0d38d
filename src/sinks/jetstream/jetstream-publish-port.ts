import { randomBytes } from 'node:crypto';
import type * as JetStreamModule from '@nats-io/jetstream';
import type { JetStreamManager } from '@nats-io/jetstream';
import type * as NatsCore from '@nats-io/nats-core';
import type { Msg, NatsConnection, Subscription } from '@nats-io/nats-core';
import { ErrorCodes } from '../../errors/error-codes.js';
import { LedgerRxError } from '../../errors/ledger-rx-error.js';
import { jetStreamMayRecover } from './jetstream-may-recover.js';
import { LedgerHeaders } from './ledger-headers.js';
import { prebuiltHeaders, type HeadersMaker } from './prebuilt-headers.js';
import type { PublishPort, StreamTip, WindowMessage } from './publish-window.js';

/** Options of {@link JetStreamPublishPort.open}. */
export interface JetStreamPublishPortOptions {
  readonly connection: NatsConnection;
  readonly manager: JetStreamManager;
  readonly stream: string;
  /** The publisher's subjects are `<subjectPrefix>.…`. */
  readonly subjectPrefix: string;
  /**
   * Whether the stream also holds other subjects: the tip is then the last message under the prefix rather
   * than the stream's last message.
   */
  readonly shared: boolean;
  /** A publish not acknowledged within this long fails with a `TimeoutError`, in ms. */
  readonly ackTimeoutMs: number;
}

interface Pending {
  readonly resolve: (ack: { readonly seq: number; readonly duplicate: boolean }) => void;
  readonly reject: (error: unknown) => void;
  readonly subject: string;
  readonly sentAt: number;
}

type Nats = typeof NatsCore;
type JetStream = typeof JetStreamModule;

/**
 * The {@link PublishPort} of `JetStreamSink`: JetStream publishes as NATS messages whose reply subject is a
 * token under one inbox of this port, so that many publishes are in flight at once with no per-message
 * request object, timer or subscription (what `js.publish()` costs per call). Each message carries
 * `Nats-Msg-Id` = `<stream>:<offset>`, its ledger headers and, when given, `Nats-Expected-Last-Sequence`.
 *
 * `publish` resolves with the stored sequence and whether the stream had the message already, or rejects
 * with the stream's refusal (`JetStreamApiError`, its `code` the JetStream error code), a
 * `NoRespondersError` (no stream captures the subject right now: a cluster electing a leader, a restarting
 * server) or a `TimeoutError` after `ackTimeoutMs` (the message or its answer was lost; an answer arriving
 * later is ignored). `tip` reads the stream's last message (under the prefix when the stream is shared).
 * `close` rejects what is pending and stops listening.
 */
export class JetStreamPublishPort implements PublishPort {
  private readonly options: JetStreamPublishPortOptions;
  private readonly nats: Nats;
  private readonly jetstream: JetStream;
  private readonly inbox: string;
  private readonly headers: HeadersMaker;
  private readonly subscription: Subscription;
  /** In send order (a Map keeps insertion order), so the oldest is first. */
  private readonly pending = new Map<string, Pending>();
  private nextToken = 0;
  private timer: ReturnType<typeof setInterval> | undefined;
  /** This publisher's `Ledger-Publisher` value, `<stream's last sequence at its start>.<random id>`: set by the first `tip()`. */
  private publisher: string | undefined;

  private constructor(options: JetStreamPublishPortOptions, nats: Nats, jetstream: JetStream) {
    this.options = options;
    this.nats = nats;
    this.jetstream = jetstream;
    this.headers = prebuiltHeaders(nats);
    const prefix = (options.connection as { options?: { inboxPrefix?: string } }).options?.inboxPrefix;
    this.inbox = nats.createInbox(prefix);
    this.subscription = options.connection.subscribe(`${this.inbox}.*`, { callback: (error, msg) => this.answer(error, msg) });
  }

  /** A port listening on a new inbox of `options.connection` (the NATS client is loaded here). */
  static async open(options: JetStreamPublishPortOptions): Promise<JetStreamPublishPort> {
    const [nats, jetstream] = await Promise.all([import('@nats-io/nats-core'), import('@nats-io/jetstream')]);
    return new JetStreamPublishPort(options, nats, jetstream);
  }

  publish(message: WindowMessage, expectedLastSeq: number | undefined): Promise<{ readonly seq: number; readonly duplicate: boolean }> {
    if (this.publisher === undefined) return Promise.reject(new Error('JetStreamPublishPort: tip() first'));
    const pairs: (readonly [string, string])[] = [...message.headers, [LedgerHeaders.publisher, this.publisher], ['Nats-Msg-Id', `${this.options.stream}:${message.offset}`]];
    if (expectedLastSeq !== undefined && expectedLastSeq > 0) pairs.push(['Nats-Expected-Last-Sequence', String(expectedLastSeq)]);
    const token = (this.nextToken++).toString(36);
    return new Promise((resolve, reject) => {
      try {
        const headers = this.headers(pairs);
        this.options.connection.publish(message.subject, message.data, { reply: `${this.inbox}.${token}`, headers });
      } catch (error) {
        reject(error);
        return;
      }
      this.pending.set(token, { resolve, reject, subject: message.subject, sentAt: Date.now() });
      this.timer ??= this.startTimer();
    });
  }

  async tip(): Promise<StreamTip | undefined> {
    const { manager: jsm, stream, subjectPrefix } = this.options;
    const info = await jsm.streams.info(stream);
    // A node of a cluster that does not know the stream's leader (just restarted, or cut off) answers from
    // its own copy, which may be behind: only the leader's answer is the tip (retried, see `retryable`).
    if (info.cluster !== undefined && !info.cluster.leader) throw new Error(`stream '${stream}' has no known leader on the node that answered`);
    this.publisher ??= `${info.state.last_seq}.${randomBytes(6).toString('hex')}`;
    if (this.options.shared) {
      const m = await jsm.streams.getMessage(stream, { last_by_subj: `${subjectPrefix}.>` });
      return m ? { seq: m.seq, offset: offsetOf(m, `message ${m.seq} of stream '${stream}'`) } : undefined;
    }
    const last = info.state.last_seq;
    if (last === 0) return undefined;
    const m = await jsm.streams.getMessage(stream, { seq: last });
    if (!m) {
      throw new LedgerRxError(
        ErrorCodes.SINK_FAILED,
        `stream '${stream}' no longer holds its last message (sequence ${last}; removed by max-age, max-bytes or by hand), so its position is unknown`,
      );
    }
    return { seq: m.seq, offset: offsetOf(m, `message ${m.seq} of stream '${stream}'`) };
  }

  /**
   * Reads the message at `seq` and ranks its `Ledger-Publisher` against this publisher's: the one that
   * started at the lower stream sequence ranks first (ties: the lower random id); this publisher yields
   * unless the other ranks after it and stored the same bytes.
   */
  async rival(seq: number, message: WindowMessage): Promise<{ readonly yields: boolean; readonly who: string }> {
    const m = await this.options.manager.streams.getMessage(this.options.stream, { seq });
    if (!m) return { yields: true, who: `a writer whose message ${seq} is gone` };
    const other = m.header.get(LedgerHeaders.publisher);
    if (!other) return { yields: true, who: `a writer without a ${LedgerHeaders.publisher} header` };
    const who = `publisher ${other}`;
    if (!sameBytes(m.data, message.data)) return { yields: true, who: `${who}, with other bytes` };
    return { yields: !(rank(other) > rank(this.publisher ?? '')), who };
  }

  retryable(error: unknown): boolean {
    return jetStreamMayRecover(error);
  }

  wrongLastSequence(error: unknown): boolean {
    return (error as { code?: unknown }).code === 10071;
  }

  /** Rejects every pending publish with `error` and stops listening for answers. */
  close(error: unknown): void {
    this.stopTimer();
    this.subscription.unsubscribe();
    this.rejectAll(error);
  }

  private answer(error: Error | null, msg: Msg): void {
    if (error) {
      this.rejectAll(error);
      return;
    }
    const pending = this.pending.get(msg.subject.slice(this.inbox.length + 1));
    if (!pending) return; // answered after its timeout: the window has moved on
    this.pending.delete(msg.subject.slice(this.inbox.length + 1));
    if (this.pending.size === 0) this.stopTimer();
    if (msg.data.length === 0 && msg.headers?.code === 503) {
      pending.reject(new this.nats.errors.NoRespondersError(pending.subject));
      return;
    }
    let ack: { seq?: unknown; duplicate?: unknown; error?: { code: number; err_code: number; description: string } };
    try {
      ack = JSON.parse(msg.string()) as typeof ack;
    } catch (parseError) {
      pending.reject(new LedgerRxError(ErrorCodes.SINK_FAILED, `the answer to a publish on '${pending.subject}' is not JSON`, { cause: parseError }));
      return;
    }
    if (ack.error) pending.reject(new this.jetstream.JetStreamApiError(ack.error));
    else if (typeof ack.seq !== 'number') pending.reject(new LedgerRxError(ErrorCodes.SINK_FAILED, `the answer to a publish on '${pending.subject}' has no sequence`));
    else pending.resolve({ seq: ack.seq, duplicate: ack.duplicate === true });
  }

  /** Checks the oldest publishes against the ack timeout, a few times per timeout. */
  private startTimer(): ReturnType<typeof setInterval> {
    const timeout = this.options.ackTimeoutMs;
    const timer = setInterval(() => {
      const now = Date.now();
      for (const [token, p] of this.pending) {
        if (now - p.sentAt < timeout) break;
        this.pending.delete(token);
        p.reject(new this.nats.errors.TimeoutError());
      }
      if (this.pending.size === 0) this.stopTimer();
    }, Math.max(1, Math.min(250, Math.ceil(timeout / 4))));
    timer.unref();
    return timer;
  }

  private stopTimer(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }

  private rejectAll(error: unknown): void {
    const all = [...this.pending.values()];
    this.pending.clear();
    this.stopTimer();
    for (const p of all) p.reject(error);
  }
}

/** A `Ledger-Publisher` value as a sortable key (start sequence, then id); a malformed one ranks first. */
function rank(publisher: string): string {
  const match = /^(\d{1,16})\.([0-9a-f]+)$/.exec(publisher);
  return match ? `${(match[1] as string).padStart(16, '0')}.${match[2] as string}` : '';
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.compare(a, b) === 0;
}

function offsetOf(m: { header: { get(k: string): string } } | null, where: string): number {
  const raw = m?.header.get(LedgerHeaders.offset) ?? '';
  if (!/^\d+$/.test(raw)) throw new LedgerRxError(ErrorCodes.SINK_FAILED, `${where} has no ${LedgerHeaders.offset} header: is the stream written by ledger-rx?`);
  return Number(raw);
}
