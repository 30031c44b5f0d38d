import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { SignJWT } from 'jose';
import { participantAudiencePrefix } from './auth/verify-token.js';
import { createRequestHandler } from './http/create-request-handler.js';
import { allRoutes } from './routes/all-routes.js';
import { resolveSandboxOptions, type ResolvedSandboxOptions, type SandboxOptions } from './sandbox-options.js';
import { ParticipantState } from './state/participant-state.js';

/** Options of {@link Sandbox.token}. */
export interface TokenOptions {
  /** Seconds until `exp`; negative for an already expired token. Default 3600. */
  readonly expiresInSeconds?: number;
  /** `audience` (default): `aud` = the participant audience; `scope`: `scope: daml_ledger_api`. */
  readonly format?: 'audience' | 'scope';
  /** Sign with another secret (to test bad signatures). */
  readonly secret?: string;
}

/** A running sandbox participant. */
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
  /** Stops the sandbox and cuts open connections. */
  close(): Promise<void>;
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
 * Starts an embedded participant that answers the JSON Ledger API v2 like a real one (see the README's
 * sandbox section for where it differs). Binds to loopback unless `host` says otherwise.
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
  const handler = createRequestHandler(state, allRoutes);
  const sockets = new Set<Socket>();
  let server = createServer(handler);
  const track = (s: Server) => {
    s.keepAliveTimeout = 5_000;
    s.requestTimeout = 0;
    s.on('connection', (socket: Socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
  };
  track(server);
  const port = await listen(server, resolved.port, resolved.host);
  const stop = async () => {
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
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
    close: stop,
  };
}
