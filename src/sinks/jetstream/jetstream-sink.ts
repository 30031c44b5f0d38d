import type { JetStreamManager, StreamConfig } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/nats-core';
import { asyncScheduler, type SchedulerLike } from 'rxjs';
import { ErrorCodes } from '../../errors/error-codes.js';
import { InvalidArgumentError } from '../../errors/invalid-argument-error.js';
import { LedgerRxError } from '../../errors/ledger-rx-error.js';
import type { JsGetUpdatesResponse } from '../../schemas/updates.js';
import { updateOffset } from '../../updates/update-offset.js';
import { wireBytes } from '../../updates/wire-bytes.js';
import type { LedgerSink, SinkCommit, SinkPosition } from '../ledger-sink.js';
import { ledgerHeaders } from './ledger-headers.js';
import { ledgerSubject, ledgerSubjectKind } from './ledger-subject.js';
import { JetStreamPublishPort } from './jetstream-publish-port.js';
import { PublishWindow, type PublishWindowStatus, type StreamTip, type WindowMessage } from './publish-window.js';
import { retryStartUp, type StartUpRetryPolicy, type StartUpWait } from './retry-start-up.js';

/** What a {@link JetStreamSink} reports (for logs and metrics). */
export type JetStreamSinkStatus =
  | { readonly type: 'stream-created'; readonly stream: string; readonly subjects: readonly string[]; readonly replicas: number }
  | { readonly type: 'stream-found'; readonly stream: string; readonly subjects: readonly string[]; readonly replicas: number; readonly messages: number }
  /** The stream also holds other subjects: publishes go one at a time, without the expected sequence. */
  | { readonly type: 'stream-shared'; readonly stream: string; readonly subjects: readonly string[] }
  | { readonly type: 'stream-differs'; readonly stream: string; readonly setting: string; readonly wanted: string; readonly actual: string }
  | { readonly type: 'resuming'; readonly tip: StreamTip | undefined }
  | PublishWindowStatus
  /** A start-up request failed in a way that may pass (the server or cluster is coming up): waiting before the next attempt. */
  | ({ readonly type: 'waiting' } & StartUpWait)
  | { readonly type: 'connection'; readonly event: string; readonly server?: string | undefined };

/** The stream settings used when the sink creates the stream. */
export interface JetStreamStreamSettings {
  /** Replicas (1, 3 or 5 in a cluster). Default 1. */
  readonly replicas?: number | undefined;
  /** Oldest message kept, in ms; 0 keeps everything. Default 0. */
  readonly maxAgeMs?: number | undefined;
  /** Most bytes kept (oldest discarded first); -1 unlimited. Default -1. */
  readonly maxBytes?: number | undefined;
  /** How long the stream remembers message ids to drop duplicates, in ms. Default 120 000. */
  readonly duplicateWindowMs?: number | undefined;
}

/** Options of {@link JetStreamSink}. */
export interface JetStreamSinkOptions {
  /** An open NATS connection (the sink does not close it; see {@link JetStreamSink.connect}). */
  readonly connection: NatsConnection;
  /** The stream's name. */
  readonly stream: string;
  /** Subjects are `<subjectPrefix>.<kind>…` (see `ledgerSubject`); the stream captures `<subjectPrefix>.>`. */
  readonly subjectPrefix: string;
  /** Create the stream with these settings when it is missing (`false`: never create). Default `{}`. */
  readonly create?: JetStreamStreamSettings | false | undefined;
  /** Publishes in flight at most. Default 1 024. */
  readonly window?: number | undefined;
  /** Wait this long for a publish acknowledgement before recovering, in ms. Default 5 000. */
  readonly ackTimeoutMs?: number | undefined;
  /**
   * Fail when publishing makes no progress for this long (server away), in ms; also how long each start-up
   * request (connect, the stream's info or creation, its last message) is tried while the server or cluster
   * comes up. Default 120 000.
   */
  readonly retryForMs?: number | undefined;
  /** Also publish `OffsetCheckpoint` elements (subject `<prefix>.checkpoint`). Default false. */
  readonly checkpoints?: boolean | undefined;
  readonly onStatus?: ((status: JetStreamSinkStatus) => void) | undefined;
  /** The clock of the start-up retries and of the publish window's retry window. Default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike | undefined;
}

/** Options of {@link JetStreamSink.connect}. */
export interface JetStreamSinkConnectOptions extends Omit<JetStreamSinkOptions, 'connection'> {
  /** Server URLs (`nats://host:4222`), comma-separated or a list. */
  readonly servers: string | readonly string[];
  /** A NATS credentials file (`.creds`: user JWT and NKey seed). */
  readonly credsFile?: string | undefined;
  /** Client name shown by the server. Default `ledger-rx`. */
  readonly name?: string | undefined;
  /** Stops trying to connect (rejects with the signal's reason). */
  readonly signal?: AbortSignal | undefined;
}

const token = /^[^.*>\s]+$/;
const streamName = /^[^.*>\s/\\]+$/;

/** Rejects bad options before anything is sent. */
function check(options: Omit<JetStreamSinkOptions, 'connection'>): void {
    if (!streamName.test(options.stream)) throw new InvalidArgumentError('stream', `must be a JetStream stream name (no '.', '*', '>', '/', '\\' or spaces), got '${options.stream}'`);
    if (options.subjectPrefix === '' || !options.subjectPrefix.split('.').every((t) => token.test(t))) {
      throw new InvalidArgumentError('subjectPrefix', `must be NATS subject tokens separated by '.', without wildcards, got '${options.subjectPrefix}'`);
    }
    for (const [name, v, min] of [['window', options.window, 1], ['ackTimeoutMs', options.ackTimeoutMs, 1], ['retryForMs', options.retryForMs, 0]] as const) {
      if (v !== undefined && (!Number.isSafeInteger(v) || v < min)) throw new InvalidArgumentError(name, `must be an integer >= ${min}`);
    }
}

/** Whether `subject` (a stream subject filter) captures every subject under `prefix`. */
function covers(filter: string, prefix: string): boolean {
  const f = filter.split('.');
  const p = [...prefix.split('.'), 'x'];
  for (let i = 0; i < f.length; i++) {
    if (f[i] === '>') return i < p.length;
    if (i >= p.length - 1) return false;
    if (f[i] !== '*' && f[i] !== p[i]) return false;
  }
  return false;
}

/** Whether every subject `filter` captures lies under `prefix` (the stream holds only this publisher's subjects). */
function within(filter: string, prefix: string): boolean {
  return filter.startsWith(`${prefix}.`);
}

/** The start-up retry policy of a sink with `options`: `retryForMs`, its scheduler, `waiting` statuses. */
function startUpPolicy(options: Omit<JetStreamSinkOptions, 'connection'>, signal: AbortSignal | undefined, where?: string): StartUpRetryPolicy {
  const onStatus = options.onStatus;
  return {
    retryForMs: options.retryForMs ?? 120_000,
    scheduler: options.scheduler ?? asyncScheduler,
    signal,
    where,
    onWaiting: onStatus && ((wait) => onStatus({ type: 'waiting', ...wait })),
  };
}

/**
 * The {@link LedgerSink} of `ledger-rx publish`: every element as one JetStream message carrying the
 * server's exact JSON bytes, to the subject `ledgerSubject(subjectPrefix, element)`, with the headers of
 * `ledgerHeaders` and `Nats-Msg-Id` = `<stream>:<offset>`; exactly once with no other store.
 *
 * - `start` creates the stream when it is missing (`<subjectPrefix>.>`, file storage, `create` settings)
 *   or checks it (it must capture `<subjectPrefix>.>`; other settings that differ are reported), reads the
 *   stream's last message and resolves with the offset it carries: the read resumes right after it;
 * - `write` publishes asynchronously through a {@link PublishWindow} of `window` messages, each expecting
 *   the stream sequence of its predecessor, so nothing is stored out of order and a second publisher on the
 *   same stream is refused by the server (`SINK_CONFLICT`); it resolves once its messages are sent, so the
 *   reader waits while the window is full;
 * - `commit(position)` resolves once every message up to `position` is acknowledged by the stream (the
 *   position is the stream's last message itself: there is nothing else to store);
 * - timeouts, `503 no responders`, reconnects and leader changes are recovered from the stream's tip
 *   without reordering (see {@link PublishWindow}); `retryForMs` without progress fails with `SINK_FAILED`.
 *
 * When the stream also holds subjects outside the prefix (shared with other writers), no stream-wide
 * expected sequence can hold, so messages are published one at a time (status `stream-shared`) and
 * resumed from the last message under the prefix.
 */
export class JetStreamSink implements LedgerSink {
  readonly stream: string;
  readonly subjectPrefix: string;
  private readonly options: JetStreamSinkOptions;
  private readonly onClose: () => Promise<void>;
  private port: JetStreamPublishPort | undefined;
  private window: PublishWindow | undefined;
  private shared = false;
  private lastWritten = -1;
  private lastPublished = -1;
  private unit = { updates: 0, bytes: 0 };

  constructor(options: JetStreamSinkOptions, onClose: () => Promise<void> = async () => undefined) {
    check(options);
    this.options = options;
    this.stream = options.stream;
    this.subjectPrefix = options.subjectPrefix;
    this.onClose = onClose;
  }

  /**
   * A sink on a new NATS connection (reconnecting forever, every 250 ms; credentials from `credsFile`);
   * `close()` drains and closes it. The NATS client is loaded only here. While no server accepts the
   * connection (none started yet, all restarting) it is tried again with backoff for `retryForMs`, with a
   * `waiting` status before each wait; then it rejects with `SINK_FAILED` naming the servers and the time.
   */
  static async connect(options: JetStreamSinkConnectOptions): Promise<JetStreamSink> {
    check(options);
    const [{ connect }, { credsAuthenticator }, { readFile }] = await Promise.all([
      import('@nats-io/transport-node'),
      import('@nats-io/nats-core'),
      import('node:fs/promises'),
    ]);
    const servers = typeof options.servers === 'string' ? options.servers.split(',').map((s) => s.trim()).filter(Boolean) : [...options.servers];
    const creds = options.credsFile === undefined ? undefined : await readFile(options.credsFile);
    const connection = await retryStartUp(
      `connect to ${servers.join(',')}`,
      () =>
        connect({
          servers,
          name: options.name ?? 'ledger-rx',
          maxReconnectAttempts: -1,
          reconnectTimeWait: 250,
          ...(creds ? { authenticator: credsAuthenticator(new Uint8Array(creds)) } : {}),
        }),
      startUpPolicy(options, options.signal, servers.join(',')),
    );
    const onStatus = options.onStatus;
    if (onStatus) {
      void (async () => {
        for await (const s of connection.status()) {
          if (s.type === 'disconnect' || s.type === 'reconnect' || s.type === 'error') onStatus({ type: 'connection', event: s.type, server: 'server' in s ? String(s.server) : undefined });
        }
      })().catch(() => undefined);
    }
    return new JetStreamSink({ ...options, connection }, async () => {
      await connection.drain().catch(() => connection.close());
    });
  }

  /**
   * Finds or creates the stream and reads its last message; resolves with the position to resume after.
   * Each of these requests is tried again while the server or cluster comes up (timeouts, no responders,
   * no leader yet, peers not all up), with a `waiting` status before each wait, for `retryForMs` per
   * request; then it rejects with `SINK_FAILED`. Rejects at once on a refusal that cannot pass (a stream
   * that does not capture the prefix, a foreign last message) and with `signal`'s reason.
   */
  async start(signal?: AbortSignal): Promise<SinkPosition | undefined> {
    const { jetstreamManager } = await import('@nats-io/jetstream');
    const connection = this.options.connection;
    const ackTimeoutMs = this.options.ackTimeoutMs ?? 5_000;
    const policy = startUpPolicy(this.options, signal);
    const manager = await jetstreamManager(connection, { timeout: ackTimeoutMs, checkAPI: false });
    await this.ensureStream(manager, policy);
    signal?.throwIfAborted();
    const port = await JetStreamPublishPort.open({ connection, manager, stream: this.stream, subjectPrefix: this.subjectPrefix, shared: this.shared, ackTimeoutMs });
    this.port = port;
    this.window = new PublishWindow(port, {
      size: this.shared ? 1 : (this.options.window ?? 1_024),
      expectSequence: !this.shared,
      retryForMs: this.options.retryForMs ?? 120_000,
      onStatus: this.options.onStatus,
      ...(this.options.scheduler === undefined ? {} : { scheduler: this.options.scheduler }),
    });
    const tip = await retryStartUp(`read the last message of stream '${this.stream}'`, () => port.tip(), policy);
    this.window.begin(tip);
    this.options.onStatus?.({ type: 'resuming', tip });
    this.lastWritten = tip?.offset ?? -1;
    this.lastPublished = this.lastWritten;
    return tip === undefined ? undefined : { offset: tip.offset, synchronizerTimes: [] };
  }

  private async ensureStream(jsm: JetStreamManager, policy: StartUpRetryPolicy): Promise<void> {
    const { onStatus, create } = this.options;
    const wanted = `${this.subjectPrefix}.>`;
    const readInfo = () =>
      retryStartUp(`read stream '${this.stream}'`, () => jsm.streams.info(this.stream), policy).catch((error: unknown) => {
        if (error instanceof Error && error.name === 'StreamNotFoundError') return undefined;
        throw error;
      });
    let info = await readInfo();
    if (!info) {
      if (create === false) throw new LedgerRxError(ErrorCodes.SINK_FAILED, `stream '${this.stream}' does not exist (and creating it was not asked for)`);
      const settings = create ?? {};
      const config: Partial<StreamConfig> & { name: string } = {
        name: this.stream,
        subjects: [wanted],
        storage: 'file' as StreamConfig['storage'],
        num_replicas: settings.replicas ?? 1,
        max_age: (settings.maxAgeMs ?? 0) * 1_000_000,
        max_bytes: settings.maxBytes ?? -1,
        duplicate_window: (settings.duplicateWindowMs ?? 120_000) * 1_000_000,
        discard: 'old' as StreamConfig['discard'],
      };
      // An earlier attempt that timed out may have created it (then the same config is accepted again), or
      // another publisher did meanwhile (10058: in use with another config): then it is checked like a found one.
      const created = await retryStartUp(`create stream '${this.stream}'`, () => jsm.streams.add(config), policy).then(
        () => true,
        (error: unknown) => {
          if ((error as { code?: unknown }).code === 10058) return false;
          throw error;
        },
      );
      if (created) {
        onStatus?.({ type: 'stream-created', stream: this.stream, subjects: [wanted], replicas: config.num_replicas ?? 1 });
        return;
      }
      info = await readInfo();
      if (!info) throw new LedgerRxError(ErrorCodes.SINK_FAILED, `stream '${this.stream}' was reported in use but cannot be read`);
    }
    const subjects = info.config.subjects ?? [];
    onStatus?.({ type: 'stream-found', stream: this.stream, subjects, replicas: info.config.num_replicas, messages: info.state.messages });
    if (!subjects.some((s) => covers(s, this.subjectPrefix))) {
      throw new LedgerRxError(ErrorCodes.SINK_FAILED, `stream '${this.stream}' does not capture '${wanted}' (its subjects: ${subjects.join(', ') || 'none'})`);
    }
    this.shared = !subjects.every((s) => within(s, this.subjectPrefix));
    if (this.shared) onStatus?.({ type: 'stream-shared', stream: this.stream, subjects });
    if (create) {
      const differs = (setting: string, want: unknown, actual: unknown) => {
        if (want !== undefined && want !== actual) onStatus?.({ type: 'stream-differs', stream: this.stream, setting, wanted: String(want), actual: String(actual) });
      };
      differs('replicas', create.replicas, info.config.num_replicas);
      differs('max-age-ms', create.maxAgeMs, info.config.max_age / 1_000_000);
      differs('max-bytes', create.maxBytes, info.config.max_bytes);
      differs('storage', 'file', info.config.storage);
    }
  }

  write(elements: readonly JsGetUpdatesResponse[]): Promise<void> {
    const window = this.window;
    if (!window) return Promise.reject(new Error('JetStreamSink: start() first'));
    try {
      for (const element of elements) {
        const offset = updateOffset(element);
        if (offset === undefined || offset <= this.lastWritten) continue;
        this.lastWritten = offset;
        if (!this.options.checkpoints && ledgerSubjectKind(element) === 'checkpoint') continue;
        const message: WindowMessage = {
          offset,
          subject: ledgerSubject(this.subjectPrefix, element),
          data: wireBytes(element),
          headers: ledgerHeaders(element, offset),
        };
        if (ledgerSubjectKind(element) !== 'checkpoint') this.unit.updates++;
        this.unit.bytes += message.data.length;
        this.lastPublished = offset;
        window.add(message);
      }
    } catch (error) {
      return Promise.reject(error);
    }
    return window.whenSent();
  }

  commit(position: SinkPosition): Promise<SinkCommit> {
    const window = this.window;
    if (!window) return Promise.reject(new Error('JetStreamSink: start() first'));
    const unit = this.unit;
    this.unit = { updates: 0, bytes: 0 };
    // Checkpoints that are not published have no message to wait for: wait for the last one published.
    const through = Math.min(position.offset, this.lastPublished);
    return window.acknowledged(through).then(() => ({ applied: true, ...unit }));
  }

  /** Stops publishing (messages in flight are left to the stream's dedup) and closes the connection of {@link JetStreamSink.connect}. */
  async close(): Promise<void> {
    const closed = new LedgerRxError(ErrorCodes.ABORTED, 'the sink was closed');
    this.window?.abort(closed);
    this.port?.close(closed);
    await this.onClose();
  }
}
