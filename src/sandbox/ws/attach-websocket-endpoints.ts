import { STATUS_CODES, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { resolveClaims, wildcardClaims, type Claims } from '../auth/claims.js';
import { extractToken } from '../auth/extract-token.js';
import { verifyToken, type TokenInfo } from '../auth/verify-token.js';
import { SandboxError } from '../errors/sandbox-error.js';
import { traceIdOf } from '../http/create-request-handler.js';
import type { ParticipantState } from '../participant/participant-state.js';
import { serveWebSocketSession, type WebSocketSession, type WebSocketSessionInfo } from './serve-websocket-session.js';
import type { WebSocketChannel } from './websocket-channel.js';

/** The subprotocol the JSON API names in every upgrade answer. */
export const damlWsAuth = 'daml.ws.auth';

/** The WebSocket side of a running sandbox. */
export interface WebSocketEndpoints {
  /** Serves the upgrades of `server` (call again for the server of a restart). */
  attach(server: Server): void;
  /** The open streams. */
  sessions(): WebSocketSessionInfo[];
  /** Drops every open connection. */
  closeAll(): void;
}

/** Writes a plain HTTP answer on a socket that asked for an upgrade, then closes it. */
function refuse(socket: Duplex, status: number, contentType: string, body: string, headers: Readonly<Record<string, string>> = {}): void {
  const lines = [`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}`];
  lines.push(`content-type: ${contentType}`, `content-length: ${Buffer.byteLength(body)}`, 'connection: close');
  for (const [k, v] of Object.entries(headers)) lines.push(`${k}: ${v}`);
  socket.end(`${lines.join('\r\n')}\r\n\r\n${body}`);
}

/**
 * The JSON layer's security step, which runs before the upgrade is accepted: only a token whose user
 * cannot be resolved (an invalid `sub`, an unknown or deactivated user) fails here, with the error the
 * claim resolver raises and `ledger_api_error: "invalid token"` in its context. A missing, invalid or
 * expired token passes: the participant rejects it once the request frame arrives (an error frame).
 */
async function securityStep(state: ParticipantState, token: TokenInfo): Promise<SandboxError | undefined> {
  if (token.kind !== 'valid') return undefined;
  try {
    resolveClaims(token, state.users);
    return undefined;
  } catch (e) {
    return e instanceof SandboxError ? e : undefined;
  }
}

/**
 * Serves the WebSocket endpoints of `channels` on the sandbox's own `node:http` server (the `ws` library
 * in `noServer` mode, on the `upgrade` event), as the participant's JSON API does on its single port:
 *
 * - an upgrade of an unknown path gets the legacy 404 body (`{"errors":[...],"status":404}`);
 * - the token comes from `Authorization: Bearer` or the first `jwt.token.<JWT>` entry of
 *   `Sec-WebSocket-Protocol`; the security step ({@link securityStep}) may refuse the upgrade with a JSON
 *   error answer;
 * - the answer always names the subprotocol `daml.ws.auth`, whether or not the client offered it (the
 *   server does not check), so a client must offer it next to its token;
 * - each connection is then served by {@link serveWebSocketSession}.
 */
export function webSocketEndpoints(state: ParticipantState, channels: readonly WebSocketChannel<unknown>[]): WebSocketEndpoints {
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false, maxPayload: state.options.maxRequestBodyBytes, handleProtocols: () => false });
  wss.on('headers', (headers) => headers.push(`Sec-WebSocket-Protocol: ${damlWsAuth}`));
  const byPath = new Map(channels.map((c) => [c.path, c]));
  const open = new Set<WebSocketSession>();
  const secret = state.options.authSecret === undefined ? undefined : new TextEncoder().encode(state.options.authSecret);

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    socket.on('error', () => socket.destroy());
    const traceId = traceIdOf(req.headers);
    let path: string;
    try {
      path = new URL(req.url ?? '/', 'http://sandbox.invalid').pathname.replace(/(.)\/$/, '$1');
    } catch {
      path = '';
    }
    const channel = byPath.get(path);
    if (!channel || (req.method ?? 'GET').toUpperCase() !== 'GET') {
      const r = SandboxError.legacyNotFound(req.method ?? 'GET', `http://${req.headers.host ?? 'localhost'}${req.url ?? ''}`).toResponse(traceId, state.participantId);
      refuse(socket, r.status, r.contentType, r.body);
      return;
    }
    const raw = extractToken(req.headers);
    const token: Promise<TokenInfo> = secret === undefined ? Promise.resolve({ kind: 'none' }) : verifyToken(raw, secret, state.participantId);
    void token.then(async (info) => {
      const refused = secret === undefined ? undefined : await securityStep(state, info);
      if (refused) {
        const body = refused.body(traceId, state.participantId);
        const withOrigin = body && { ...body, context: { ...body.context, ledger_api_error: 'invalid token' } };
        const r = refused.toResponse(traceId, state.participantId);
        refuse(socket, r.status, r.contentType, withOrigin ? JSON.stringify(withOrigin) : r.body);
        return;
      }
      const claims = (): Promise<Claims> => (secret === undefined ? Promise.resolve(wildcardClaims) : Promise.resolve(info).then((t) => resolveClaims(t, state.users)));
      wss.handleUpgrade(req, socket, head, (ws) => {
        const session = serveWebSocketSession(ws, socket, channel, state, { traceId, claims, idleTimeoutMs: state.options.webSocketIdleTimeoutMs });
        open.add(session);
        void session.closed.then(() => open.delete(session));
      });
    });
  };

  return {
    attach(server) {
      server.on('upgrade', onUpgrade);
    },
    sessions: () => [...open].map((s) => s.info()),
    closeAll() {
      for (const s of open) s.terminate();
      open.clear();
    },
  };
}
