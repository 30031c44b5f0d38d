import type { Transport } from '../../updates/transport.js';

/**
 * Where a command reads from: a participant (`url`, with an optional `token` or `tokenFile`), or the
 * embedded sandbox (`sandbox`), started in-process with a live workload of `sandboxRate` transactions per
 * second over `sandboxSeed` seeded ones. Exactly one of `url` and `sandbox` must be set.
 */
export interface SourceOptions {
  readonly url?: string | undefined;
  /** A fixed JWT. Prefer `tokenFile` or `LEDGER_RX_TOKEN`: a flag shows in the process list. */
  readonly token?: string | undefined;
  /** A file holding the JWT, read again before every request (so a rotating token works). */
  readonly tokenFile?: string | undefined;
  /** `--ca-file`, `--cert`, `--key`: TLS files for an `https://` participant (the client's `tls` option). */
  readonly caFile?: string | undefined;
  readonly certFile?: string | undefined;
  readonly keyFile?: string | undefined;
  readonly sandbox?: boolean | undefined;
  /** Transactions per second of the sandbox's live workload. Default 20. */
  readonly sandboxRate?: number | undefined;
  /** Transactions the sandbox creates at start. Default 50. */
  readonly sandboxSeed?: number | undefined;
  /**
   * `--wait-for-participant`: at start-up, retry a participant that refuses connections or whose host is
   * unknown for as long as the retries last, instead of giving up after `startupGiveUpMs`.
   */
  readonly waitForParticipant?: boolean | undefined;
  /**
   * How long the start-up (the first request) retries a refused connection or an unknown host before it
   * gives up with one line (`ParticipantUnreachableError`). Default 5 000 ms; no flag (tests set it).
   */
  readonly startupGiveUpMs?: number | undefined;
  /** How the reading commands read updates (`--transport`). Default `'auto'`. */
  readonly transport?: Transport | undefined;
  /** `--websocket-handshake-timeout`: the client's `webSocketHandshakeTimeoutMs` (default the client's, 3 000). */
  readonly webSocketHandshakeTimeoutMs?: number | undefined;
}
