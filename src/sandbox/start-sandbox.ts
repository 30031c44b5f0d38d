import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { SignJWT } from 'jose';
import { wildcardClaims } from './auth/claims.js';
import { participantAudiencePrefix } from './auth/verify-token.js';
import { createRequestHandler } from './http/create-request-handler.js';
import { allocateParty } from './submit/allocate-party.js';
import { decodeJsCommands } from './decode/decode-js-commands.js';
import type { JsCommandsInput } from './decode/js-commands-input.js';
import type { SubmitResult } from './submit/commit-commands.js';
import { submitCommands } from './submit/submit-commands.js';
import { summarizeUpdate, type LedgerUpdate } from './render/summarize-update.js';
import { WorkloadGenerator } from './workload/workload-generator.js';
import { allRoutes } from './routes/all-routes.js';
import { allChannels } from './ws/all-channels.js';
import { webSocketEndpoints } from './ws/attach-websocket-endpoints.js';
import type { WebSocketSessionInfo } from './ws/serve-websocket-session.js';
import type { OpenStreamInfo } from './auth/open-stream-guard.js';
import type { SubmissionFault } from './faults/submission-faults.js';
import { webSocketOnlyFaults, type UpdateFault } from './faults/update-fault.js';
import { loadDars } from './packages/load-dars.js';
import { resolveSandboxOptions, type ResolvedSandboxOptions, type SandboxOptions } from './sandbox-options.js';
import { ParticipantState } from './participant/participant-state.js';

/** Options of {@link Sandbox.token}. */
export interface TokenOptions {
  /** Seconds until `exp`; negative for an already expired token. Default 3600. */
  readonly expiresInSeconds?: number;
  /** `audience` (default): `aud` = the participant audience; `scope`: `scope: daml_ledger_api`. */
  readonly format?: 'audience' | 'scope';
  /** Sign with another secret (to test bad signatures). */
  readonly secret?: string;
}

/** A range of the update log, like `POST /v2/updates` takes it. */
export interface OffsetRange {
  readonly beginExclusive?: number;
  readonly endInclusive?: number;
}

/** Options of {@link Sandbox.submit}. */
export interface SubmitHandleOptions {
  /**
   * Record the submission as the execution of a transaction prepared and signed by an external party: its
   * transaction and completion carry a transaction hash (`externalTransactionHash`, and on 3.6
   * `transactionHash`, found by `update-by-hash` and `completion-by-hash`), returned in the result.
   * Default false. The sandbox has no interactive-submission endpoints (docs/participant-versions.md).
   */
  readonly externallySigned?: boolean;
}

/** Options of {@link Sandbox.allocateParty}. */
export interface AllocatePartyHandleOptions {
  /** The synchronizer to host the party on (default: the first). */
  readonly synchronizerId?: string;
  /** A user that gets `CanActAs` on the new party. */
  readonly userId?: string;
}

/**
 * A running sandbox participant.
 *
 * Besides the HTTP API it offers in-process methods for seeding and inspection. They act with every
 * right (as when auth is off) and throw the same `SandboxError`s the routes turn into error answers.
 */
export interface Sandbox {
  /** Base URL, e.g. `http://127.0.0.1:7575`. */
  readonly url: string;
  readonly host: string;
  readonly port: number;
  readonly options: ResolvedSandboxOptions;
  /** The in-process handle on the participant's state, for seeding and inspection. */
  readonly state: ParticipantState;
  /** Signs an HS256 token for `userId` (needs `authSecret`). */
  token(userId: string, options?: TokenOptions): Promise<string>;
  /** Stops listening and listens again on the same port; the state is kept. Open connections are cut. */
  restart(): Promise<void>;
  /** Stops the sandbox (and its workload) and cuts open connections. */
  close(): Promise<void>;
  /** The id of a known party by its hint: `partyId('Alice')` → `Alice::1220…`. Throws for an unknown hint. */
  partyId(hint: string): string;
  /** Allocates a local party (and appends its topology transaction); returns its id. */
  allocateParty(hint: string, options?: AllocatePartyHandleOptions): string;
  /**
   * Submits commands with the semantics of `POST /v2/commands/async/submit` (validation order,
   * structural interpretation, deduplication); resolves once the transaction is appended, or rejects with
   * the error its completion reports (a duplicate change id, an injected fault). `userId` defaults to
   * `participant_admin`.
   */
  submit(commands: JsCommandsInput, options?: SubmitHandleOptions): Promise<SubmitResult>;
  /** Appends `count` generated transactions (the `seed` option's workload), back-dated between the last update and now. */
  seed(count: number): void;
  /** Prunes the ledger up to `offset` inclusive: later reads must begin at or after it. */
  prune(offset: number): void;
  /** The ledger end: the last offset consumed (by an update or an invisible participant event), 0 on an empty ledger. */
  ledgerEnd(): number;
  /** The sandbox's own update log in `(beginExclusive, endInclusive]` (default: all of it), unfiltered. */
  updates(range?: OffsetRange): LedgerUpdate[];
  /** Starts (or changes the rate of) a live workload of `rate` transactions per second. */
  startWorkload(rate: number): void;
  /** Stops the live workload. */
  stopWorkload(): void;
  /** Makes the next updates answer(s) faulty, over HTTP, WebSocket or both (see {@link UpdateFault}). */
  injectFault(fault: UpdateFault): void;
  /**
   * Makes the next accepted command submission(s) fail after they were accepted: `POST /v2/commands/async/submit`
   * still answers `{}`, the failure comes as a completion (see {@link SubmissionFault}); `submit` rejects.
   */
  injectSubmissionFault(fault: SubmissionFault): void;
  /** The open WebSocket streams: path, frames sent, bytes the socket still buffers, whether paused by backpressure. */
  webSocketSessions(): WebSocketSessionInfo[];
  /**
   * The streams open now under the participant's ongoing authorization (token expiry, rights changes):
   * HTTP lists being collected and WebSocket streams of updates, completions and active contracts, each
   * with its transport, endpoint and user. A test waits on it to change a user's rights while a stream is open.
   */
  openStreams(): OpenStreamInfo[];
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/**
 * Starts an embedded participant that answers the JSON Ledger API v2 like a real one (see
 * docs/sandbox.md#where-it-differs-from-a-real-participant for where it differs). Binds to loopback unless `host` says otherwise.
 *
 * ## Example
 * ```ts
 * const sandbox = await startSandbox({ seed: 1000 });
 * const client = createLedgerClient({ baseUrl: sandbox.url });
 * // ...
 * await sandbox.close();
 * ```
 */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const resolved = resolveSandboxOptions(options);
  const state = new ParticipantState(resolved);
  await loadDars(state, resolved.dars);
  const ledger = state.ledger;
  const workload = new WorkloadGenerator(state, resolved.seedPayloadBytes);
  if (resolved.seed > 0) {
    workload.seed(resolved.seed);
    ledger.refreshCheckpoint();
  }
  // A path the served release line lacks is not routed: it answers the legacy 404 (docs/participant-versions.md).
  const served = (path: string) => !state.api.absentPaths.has(path);
  const handler = createRequestHandler(state, allRoutes.filter((r) => served(r.pattern)));
  const webSockets = webSocketEndpoints(state, allChannels.filter((c) => served(c.path)));
  const sockets = new Set<Socket>();
  let server = createServer(handler);
  const track = (s: Server) => {
    webSockets.attach(s);
    s.keepAliveTimeout = 5_000;
    s.requestTimeout = 0;
    s.on('connection', (socket: Socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
  };
  track(server);
  let port: number;
  try {
    port = await listen(server, resolved.port, resolved.host);
  } catch (error) {
    ledger.close();
    throw error;
  }
  if (resolved.generate !== undefined) workload.start(resolved.generate);
  const stop = async () => {
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      webSockets.closeAll();
      for (const s of sockets) s.destroy();
      server.closeAllConnections();
    });
  };
  const hostForUrl = resolved.host.includes(':') ? `[${resolved.host}]` : resolved.host;
  return {
    url: `http://${hostForUrl}:${port}`,
    host: resolved.host,
    port,
    options: resolved,
    state,
    async token(userId, tokenOptions = {}) {
      const secret = tokenOptions.secret ?? resolved.authSecret;
      if (secret === undefined) throw new Error('the sandbox runs without auth: start it with authSecret to sign tokens');
      const claims = tokenOptions.format === 'scope' ? { scope: 'daml_ledger_api' } : { aud: `${participantAudiencePrefix}${state.participantId}` };
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(userId)
        .setIssuedAt(now)
        .setExpirationTime(now + (tokenOptions.expiresInSeconds ?? 3600))
        .sign(new TextEncoder().encode(secret));
    },
    async restart() {
      await stop();
      server = createServer(handler);
      track(server);
      await listen(server, port, resolved.host);
    },
    async close() {
      workload.stop();
      ledger.close();
      await stop();
    },
    partyId(hint) {
      const id = state.partyId(hint);
      if (id === undefined) throw new Error(`no party with hint ${hint}`);
      return id;
    },
    allocateParty(hint, partyOptions = {}) {
      return allocateParty(state, hint, partyOptions).party;
    },
    async submit(commands, submitOptions = {}) {
      const request = decodeJsCommands({ ...commands, userId: commands.userId ?? 'participant_admin' });
      return submitCommands(state, request, { claims: () => wildcardClaims, externallySigned: submitOptions.externallySigned === true });
    },
    seed(count) {
      if (!Number.isSafeInteger(count) || count < 0) throw new RangeError(`seed count must be a non-negative integer, got ${count}`);
      workload.seed(count);
    },
    prune(offset) {
      ledger.prune(offset);
    },
    ledgerEnd() {
      return ledger.ledgerEnd();
    },
    updates(range = {}) {
      const out: LedgerUpdate[] = [];
      const end = range.endInclusive ?? Number.POSITIVE_INFINITY;
      for (let i = ledger.indexAfter(range.beginExclusive ?? 0); i < ledger.size; i++) {
        const u = ledger.at(i);
        if (!u || u.offset > end) break;
        out.push(summarizeUpdate(ledger, u));
      }
      return out;
    },
    startWorkload(rate) {
      workload.start(rate);
    },
    stopWorkload() {
      workload.stop();
    },
    injectFault(fault) {
      if (!Number.isSafeInteger(fault.afterElements) || fault.afterElements < 0) throw new RangeError('afterElements must be a non-negative integer');
      if (fault.kind === 'duplicate-offset' && fault.afterElements < 1) throw new RangeError('a duplicate-offset fault needs afterElements >= 1');
      if (fault.times !== undefined && (!Number.isSafeInteger(fault.times) || fault.times < 1)) throw new RangeError('times must be a positive integer');
      if (webSocketOnlyFaults.has(fault.kind) && fault.transport !== undefined && fault.transport !== 'websocket') {
        throw new RangeError(`a ${fault.kind} fault exists only on WebSocket streams: its transport must be 'websocket'`);
      }
      state.faults.add(fault);
    },
    injectSubmissionFault(fault) {
      if (fault.times !== undefined && (!Number.isSafeInteger(fault.times) || fault.times < 1)) throw new RangeError('times must be a positive integer');
      state.submissionFaults.add(fault);
    },
    webSocketSessions() {
      return webSockets.sessions();
    },
    openStreams() {
      return [...state.openStreams];
    },
  };
}
