import type { SinkReadOptions } from '../sink/sink-read-options.js';

/** Everything `ledger-rx publish` does, as options of `runPublish`. */
export interface PublishOptions extends SinkReadOptions {
  /** NATS server URLs, comma-separated. */
  readonly nats: string;
  /** A NATS credentials file. */
  readonly natsCreds?: string | undefined;
  /** The JetStream stream. */
  readonly stream: string;
  /** Subjects are `<subjectPrefix>.<kind>.…`. */
  readonly subjectPrefix: string;
  /** Stream settings used when the stream is created (and compared when it exists). */
  readonly replicas?: number | undefined;
  readonly maxAgeMs?: number | undefined;
  readonly maxBytes?: number | undefined;
  /** Publishes in flight at most. Default 1 024. */
  readonly window?: number | undefined;
  /** Wait this long for an acknowledgement before recovering, in ms. Default 5 000. */
  readonly ackTimeoutMs?: number | undefined;
  /** Give up after this long without progress (server away), in ms. Default 120 000. */
  readonly retryForMs?: number | undefined;
  /** Also publish `OffsetCheckpoint` elements. */
  readonly includeCheckpoints?: boolean | undefined;
}
