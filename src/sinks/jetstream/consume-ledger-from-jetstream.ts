import type { ConsumerMessages, JsMsg } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/nats-core';
import { Observable, asyncScheduler, from, lastValueFrom, type ObservableInput, type SchedulerLike } from 'rxjs';
import { ErrorCodes } from '../../errors/error-codes.js';
import { InvalidArgumentError } from '../../errors/invalid-argument-error.js';
import { LedgerRxError } from '../../errors/ledger-rx-error.js';
import { ProtocolError } from '../../errors/protocol-error.js';
import type { JsGetUpdatesResponse } from '../../schemas/updates.js';
import { decodeUpdateElement } from '../../updates/decode-update-element.js';
import { rememberElementText } from '../../updates/element-text.js';
import { findSequenceAfter } from './find-sequence-after.js';
import { LedgerHeaders } from './ledger-headers.js';
import { retryStartUp, type StartUpRetryPolicy, type StartUpWait } from './retry-start-up.js';

/** Options of {@link consumeLedgerFromJetStream}. */
export interface ConsumeLedgerOptions {
  /** An open NATS connection (left open). */
  readonly connection: NatsConnection;
  /** The stream `ledger-rx publish` writes. */
  readonly stream: string;
  /** Only these subjects, e.g. `ledger.p1.transaction.my-pkg.>`. Default: the whole stream. */
  readonly filterSubject?: string | undefined;
  /**
   * Start after this offset (a replay): the first message above it is found by binary search. Default:
   * the stream's first message. A durable consumer takes it only when it creates the consumer.
   */
  readonly afterOffset?: number | undefined;
  /**
   * The name of a durable consumer shared by load-balanced workers (created when missing, with explicit
   * acks): each element goes to one of them. Default: an ordered consumer of this subscriber alone.
   */
  readonly durable?: string | undefined;
  /** Async work per element: the element is emitted (and, durable, acknowledged) once it completes. */
  readonly handler?: ((element: JsGetUpdatesResponse) => ObservableInput<unknown>) | undefined;
  /** Validate each element against the wire schema. Default true. */
  readonly validate?: boolean | undefined;
  /** Messages the client buffers ahead. Default 256 (ordered), 16 (durable). */
  readonly buffer?: number | undefined;
  /** Durable: redeliver a message not acknowledged within this long, in ms. Default 30 000. */
  readonly ackWaitMs?: number | undefined;
  /**
   * How long each start-up request (the stream's info, the consumer's info or creation, the search for
   * `afterOffset`) is tried again while the server or cluster comes up, in ms. Default 120 000.
   */
  readonly retryForMs?: number | undefined;
  /** Called before each wait of a start-up request that failed in a way that may pass. */
  readonly onWaiting?: ((wait: StartUpWait) => void) | undefined;
  /** The clock of the start-up retries. Default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike | undefined;
}

function decode(msg: JsMsg, validate: boolean): { element: JsGetUpdatesResponse; offset: number } {
  const raw = msg.headers?.get(LedgerHeaders.offset) ?? '';
  const text = msg.string();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ProtocolError(ErrorCodes.MALFORMED_JSON, `message ${msg.seq} of the stream is not valid JSON`, { cause: error });
  }
  const element = decodeUpdateElement(value, msg.seq, { validate });
  rememberElementText(element, text);
  if (!/^\d+$/.test(raw)) throw new ProtocolError(ErrorCodes.SCHEMA_MISMATCH, `message ${msg.seq} has no ${LedgerHeaders.offset} header`, { elementIndex: msg.seq });
  return { element, offset: Number(raw) };
}

/**
 * The update stream back out of the JetStream stream `ledger-rx publish` writes: the same typed elements
 * `tailUpdates` gives (decoded from the server's exact bytes, validated unless `validate: false`, with
 * `elementText` available), as an Observable that never completes on its own.
 *
 * - Ordered (default): an ordered consumer of this subscriber alone, from the stream's start or right
 *   after `afterOffset` (a replay). Offsets strictly increase and nothing is missing: an offset not above
 *   the previous one is a `ProtocolError` `OFFSET_NOT_INCREASING`; without `filterSubject`, a stream
 *   sequence that skips a message (removed while being read) is a `SINK_FAILED` error. Elements are
 *   delivered one at a time, after `handler` when given.
 * - Durable (`durable: name`): a pull consumer shared by every subscriber that names it, so load-balanced
 *   workers together see each element once; a message is acknowledged after its element was emitted (and
 *   `handler` completed) and redelivered to a worker if it was not acknowledged in `ackWaitMs` (a worker
 *   crashed): at least once across crashes, in stream order per worker.
 *
 * Start-up requests (the stream, the consumer, the search for `afterOffset`) are tried again while the
 * server or cluster comes up (timeouts, no responders, no leader yet), with `onWaiting` before each wait,
 * for `retryForMs` each; then the Observable errors with `SINK_FAILED`. Errors with the consumer's errors
 * (stream or consumer deleted, …) and the decoding errors above. Unsubscribing stops the consumer (an
 * ordered one is deleted by the server) and the start-up retries.
 */
export function consumeLedgerFromJetStream(options: ConsumeLedgerOptions): Observable<JsGetUpdatesResponse> {
  if (options.afterOffset !== undefined && (!Number.isSafeInteger(options.afterOffset) || options.afterOffset < 0)) {
    throw new InvalidArgumentError('afterOffset', 'must be an integer >= 0');
  }
  const validate = options.validate ?? true;
  return new Observable<JsGetUpdatesResponse>((subscriber) => {
    let messages: ConsumerMessages | undefined;
    let closed = false;
    const stopped = new AbortController();
    const policy: StartUpRetryPolicy = {
      retryForMs: options.retryForMs ?? 120_000,
      scheduler: options.scheduler ?? asyncScheduler,
      signal: stopped.signal,
      onWaiting: options.onWaiting,
    };
    const stream = options.stream;
    const run = async () => {
      const { jetstream, jetstreamManager, AckPolicy, DeliverPolicy } = await import('@nats-io/jetstream');
      const nc = options.connection;
      const js = jetstream(nc);
      const jsm = await jetstreamManager(nc, { checkAPI: false });
      const afterOffset = options.afterOffset;
      const start = afterOffset === undefined ? undefined : await retryStartUp(`find offset ${afterOffset} in stream '${stream}'`, () => findSequenceAfter(jsm, stream, afterOffset), policy);
      const startAt = start === undefined ? { deliver_policy: DeliverPolicy.All } : { deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: start };
      const durable = options.durable;
      if (durable !== undefined) {
        const exists = await retryStartUp(`read consumer '${durable}' of stream '${stream}'`, () => jsm.consumers.info(stream, durable), policy).then(
          () => true,
          (error: unknown) => {
            if (error instanceof Error && error.name === 'ConsumerNotFoundError') return false;
            throw error;
          },
        );
        if (!exists) {
          const config = {
            durable_name: durable,
            ack_policy: AckPolicy.Explicit,
            ack_wait: (options.ackWaitMs ?? 30_000) * 1_000_000,
            ...startAt,
            ...(options.filterSubject ? { filter_subject: options.filterSubject } : {}),
          };
          await retryStartUp(`create consumer '${durable}' of stream '${stream}'`, () => jsm.consumers.add(stream, config), policy);
        }
      }
      const ordered = { ...startAt, ...(options.filterSubject ? { filter_subjects: options.filterSubject } : {}) };
      const consumer = await retryStartUp(
        `open a consumer of stream '${stream}'`,
        () => (durable !== undefined ? js.consumers.get(stream, durable) : js.consumers.get(stream, ordered)),
        policy,
      );
      if (closed) return;
      messages = await consumer.consume({ max_messages: options.buffer ?? (durable !== undefined ? 16 : 256) });
      if (closed) {
        await messages.close();
        return;
      }
      let lastOffset = options.afterOffset ?? -1;
      let lastSeq: number | undefined;
      for await (const msg of messages) {
        const { element, offset } = decode(msg, validate);
        if (durable === undefined) {
          if (offset <= lastOffset) {
            if (options.afterOffset !== undefined && lastSeq === undefined && offset <= options.afterOffset) continue;
            throw new ProtocolError(ErrorCodes.OFFSET_NOT_INCREASING, `offset ${offset} after ${lastOffset} (stream sequence ${msg.seq})`, { offset, elementIndex: msg.seq });
          }
          if (!options.filterSubject && lastSeq !== undefined && msg.seq !== lastSeq + 1) {
            throw new LedgerRxError(ErrorCodes.SINK_FAILED, `stream '${options.stream}' skipped from sequence ${lastSeq} to ${msg.seq}: messages were removed while being read`);
          }
          lastOffset = offset;
          lastSeq = msg.seq;
        }
        if (options.handler) await lastValueFrom(from(options.handler(element)), { defaultValue: undefined });
        if (closed) return;
        subscriber.next(element);
        if (durable !== undefined) msg.ack();
      }
    };
    run().then(
      () => undefined,
      (error: unknown) => {
        if (!closed) subscriber.error(error);
      },
    );
    return () => {
      closed = true;
      stopped.abort(new LedgerRxError(ErrorCodes.ABORTED, 'unsubscribed'));
      void messages?.close().catch(() => undefined);
    };
  });
}
