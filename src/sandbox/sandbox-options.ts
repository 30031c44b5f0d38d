import { defaultSandboxApiVersion, isSandboxApiVersion, sandboxApiVersions, type SandboxApiVersion } from './version/api-version-profile.js';

/** How `POST /v2/updates` writes its answer. */
export type ResponseMode = 'buffered' | 'streamed';

/**
 * Options of the embedded sandbox participant. Every option is also a flag of `ledger-rx sandbox`.
 */
export interface SandboxOptions {
  /**
   * The Canton release line to serve: its endpoints (one it lacks answers the legacy 404), its answer
   * fields, its `GET /v2/version` string and its filter rules (docs/participant-versions.md). Default
   * `'3.6'`, the newest.
   */
  readonly apiVersion?: SandboxApiVersion;
  /** Interface to bind. Default `127.0.0.1` (loopback only). */
  readonly host?: string;
  /** Port to bind; `0` (the library default) picks a free one. The CLI's default is 7575. */
  readonly port?: number;
  /** `http-list-max-elements-limit`: the most elements a list answer holds. Default 200. */
  readonly maxListElements?: number;
  /** `http-list-wait-time`: the default idle timeout of open-ended list reads, in ms. Default 500. */
  readonly listWaitMs?: number;
  /** Maximum page size of the vetted-packages list. Default 100. */
  readonly maxVettingPageSize?: number;
  /** How many synchronizers the participant is connected to. Default 1. */
  readonly synchronizers?: number;
  /** When set, tokens must be HS256 JWTs signed with this secret. Default: auth off. */
  readonly authSecret?: string;
  /**
   * `buffered` (default) collects the list before answering, like the real server; `streamed` writes each
   * element as it is produced, with backpressure, for large reads and benchmarks. In `streamed` mode a
   * request's `limit` is honoured as given, even above `maxListElements` (no 413 then); without `limit`
   * the answer is capped and may be a 413 exactly as in buffered mode.
   */
  readonly responseMode?: ResponseMode;
  /**
   * Creates this many transactions at start (creates, transfers, keyed assets, non-consuming and transient
   * exercises among the start parties), back-dated over the hour before the start. Default 0. 10^6 takes
   * about two seconds and ~400 MB of heap.
   */
  readonly seed?: number;
  /** Approximate create-argument size of seeded and generated `Iou` contracts, in bytes (a shared `memo` text pads them). */
  readonly seedPayloadBytes?: number;
  /** A live workload of this many transactions per second, from the start (see `Sandbox.startWorkload`). Default: none. */
  readonly generate?: number;
  /** The JSON API request timeout (answered with 503 text/plain). Default 20 000 ms. */
  readonly requestTimeoutMs?: number;
  /** Largest accepted request body; larger bodies get 413. Default 8 MiB. */
  readonly maxRequestBodyBytes?: number;
  /**
   * How often the cached offset checkpoint is refreshed, in ms (default 15 000, as on a real participant).
   * Open-ended update reads carry it; lower it to see checkpoints sooner.
   */
  readonly checkpointIntervalMs?: number;
  /** Seed of the sandbox's pseudo-random choices (ids, offset gaps, the generated workload). Default 1. */
  readonly randomSeed?: number;
  /**
   * `idle-stream-offset-checkpoint-timeout`: an open-ended stream that saw no new ledger record for this
   * long probes for a checkpoint again (after the first probe 500 ms into the stream). Default 60 000 ms,
   * as on a real participant; lower it to see idle checkpoints on a WebSocket sooner.
   */
  readonly idleCheckpointIntervalMs?: number;
  /**
   * The HTTP server's idle timeout for WebSocket connections: a connection with no frame in either
   * direction (pings included) for this long is dropped without a close frame. Default 60 000 ms (the
   * pekko-http default the real JSON API runs with); `0` turns it off.
   */
  readonly webSocketIdleTimeoutMs?: number;
  /**
   * How often a stream re-reads its user's rights; a change (rights, deactivation, deletion) ends the
   * stream with `STALE_STREAM_AUTHORIZATION`. Default 5 000 ms (the participant's user-management cache
   * expiry).
   */
  readonly userRightsCheckIntervalMs?: number;
  /** How long past its `exp` a token may keep a stream open (`token-expiry-grace-period-for-streams`). Default 0. */
  readonly tokenExpiryGracePeriodMs?: number;
  /** `max-updates-page-size`: the largest `maxPageSize` of `POST /v2/updates/get-updates-page`. Default 2000. */
  readonly maxUpdatesPageSize?: number;
  /** `default-updates-page-size`: the page size when a request gives none. Default 100. */
  readonly defaultUpdatesPageSize?: number;
  /**
   * Time between accepting a command submission (`POST /v2/commands/async/submit` answers `{}`) and
   * recording its outcome — the transaction and its completion, or a rejection completion. Default 0: the
   * outcome is recorded before the answer. With a delay, submissions of the same change id in the meantime
   * are `SUBMISSION_ALREADY_IN_FLIGHT`, and one that uses a contract another consumed first fails with
   * `LOCAL_VERDICT_INACTIVE_CONTRACTS` on the completion stream.
   */
  readonly submissionDelayMs?: number;
  /** `max-acs-page-size`: the largest `maxPageSize` of `/v2/state/active-contracts-page`. Default 10 000. */
  readonly maxAcsPageSize?: number;
  /** `default-acs-page-size`: its page size when a request gives none. Default 2000. */
  readonly defaultAcsPageSize?: number;
  /**
   * DARs to upload at start, in order (file paths or the DAR's bytes), as `POST /v2/dars` does, vetted on
   * the first synchronizer (docs/sandbox.md#dar-uploads). `startSandbox` rejects with a `DarLoadError` for
   * one that cannot be read or that the participant would refuse. Default none.
   */
  readonly dars?: readonly (string | Uint8Array)[];
}

/** {@link SandboxOptions} with every default applied. */
export type ResolvedSandboxOptions = Required<Omit<SandboxOptions, 'authSecret' | 'generate' | 'seedPayloadBytes'>> & {
  readonly authSecret: string | undefined;
  readonly generate: number | undefined;
  readonly seedPayloadBytes: number | undefined;
};

/** Applies defaults and checks ranges; throws `RangeError` on nonsense. */
export function resolveSandboxOptions(options: SandboxOptions = {}): ResolvedSandboxOptions {
  const r: ResolvedSandboxOptions = {
    apiVersion: options.apiVersion ?? defaultSandboxApiVersion,
    host: options.host ?? '127.0.0.1',
    port: options.port ?? 0,
    maxListElements: options.maxListElements ?? 200,
    listWaitMs: options.listWaitMs ?? 500,
    maxVettingPageSize: options.maxVettingPageSize ?? 100,
    synchronizers: options.synchronizers ?? 1,
    authSecret: options.authSecret,
    responseMode: options.responseMode ?? 'buffered',
    seed: options.seed ?? 0,
    seedPayloadBytes: options.seedPayloadBytes,
    generate: options.generate,
    requestTimeoutMs: options.requestTimeoutMs ?? 20_000,
    maxRequestBodyBytes: options.maxRequestBodyBytes ?? 8 * 1024 * 1024,
    checkpointIntervalMs: options.checkpointIntervalMs ?? 15_000,
    randomSeed: options.randomSeed ?? 1,
    idleCheckpointIntervalMs: options.idleCheckpointIntervalMs ?? 60_000,
    webSocketIdleTimeoutMs: options.webSocketIdleTimeoutMs ?? 60_000,
    userRightsCheckIntervalMs: options.userRightsCheckIntervalMs ?? 5_000,
    tokenExpiryGracePeriodMs: options.tokenExpiryGracePeriodMs ?? 0,
    maxUpdatesPageSize: options.maxUpdatesPageSize ?? 2000,
    defaultUpdatesPageSize: options.defaultUpdatesPageSize ?? 100,
    submissionDelayMs: options.submissionDelayMs ?? 0,
    maxAcsPageSize: options.maxAcsPageSize ?? 10_000,
    defaultAcsPageSize: options.defaultAcsPageSize ?? 2000,
    dars: options.dars ?? [],
  };
  if (!isSandboxApiVersion(r.apiVersion)) {
    throw new RangeError(`sandbox option apiVersion must be one of ${sandboxApiVersions.join(', ')}, got ${String(r.apiVersion)}`);
  }
  const positive = (name: string, v: number, min = 1) => {
    if (!Number.isInteger(v) || v < min) throw new RangeError(`sandbox option ${name} must be an integer >= ${min}, got ${v}`);
  };
  positive('port', r.port, 0);
  if (r.port > 65535) throw new RangeError(`sandbox option port must be <= 65535, got ${r.port}`);
  positive('maxListElements', r.maxListElements);
  positive('listWaitMs', r.listWaitMs, 0);
  positive('maxVettingPageSize', r.maxVettingPageSize);
  positive('synchronizers', r.synchronizers);
  positive('seed', r.seed, 0);
  positive('requestTimeoutMs', r.requestTimeoutMs);
  positive('maxRequestBodyBytes', r.maxRequestBodyBytes);
  positive('checkpointIntervalMs', r.checkpointIntervalMs);
  positive('idleCheckpointIntervalMs', r.idleCheckpointIntervalMs);
  positive('webSocketIdleTimeoutMs', r.webSocketIdleTimeoutMs, 0);
  positive('userRightsCheckIntervalMs', r.userRightsCheckIntervalMs);
  positive('tokenExpiryGracePeriodMs', r.tokenExpiryGracePeriodMs, 0);
  positive('maxUpdatesPageSize', r.maxUpdatesPageSize);
  positive('defaultUpdatesPageSize', r.defaultUpdatesPageSize);
  positive('submissionDelayMs', r.submissionDelayMs, 0);
  positive('maxAcsPageSize', r.maxAcsPageSize);
  positive('defaultAcsPageSize', r.defaultAcsPageSize);
  if (r.defaultAcsPageSize > r.maxAcsPageSize) {
    throw new RangeError(`sandbox option defaultAcsPageSize (${r.defaultAcsPageSize}) must not exceed maxAcsPageSize (${r.maxAcsPageSize})`);
  }
  if (r.defaultUpdatesPageSize > r.maxUpdatesPageSize) {
    throw new RangeError(`sandbox option defaultUpdatesPageSize (${r.defaultUpdatesPageSize}) must not exceed maxUpdatesPageSize (${r.maxUpdatesPageSize})`);
  }
  if (r.seedPayloadBytes !== undefined) positive('seedPayloadBytes', r.seedPayloadBytes, 0);
  if (r.generate !== undefined && !(r.generate > 0)) throw new RangeError(`sandbox option generate must be > 0, got ${r.generate}`);
  if (r.responseMode !== 'buffered' && r.responseMode !== 'streamed') throw new RangeError(`sandbox option responseMode must be buffered or streamed`);
  if (r.authSecret !== undefined && r.authSecret.length === 0) throw new RangeError('sandbox option authSecret must not be empty');
  return r;
}
