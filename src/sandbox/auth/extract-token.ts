import type { IncomingHttpHeaders } from 'node:http';

/**
 * The caller's token: `Authorization: Bearer <jwt>`, else the first `jwt.token.<jwt>` entry of
 * `Sec-WebSocket-Protocol` (accepted on every endpoint, as the real server does). `undefined` without one.
 */
export function extractToken(headers: IncomingHttpHeaders): string | undefined {
  const auth = headers.authorization;
  if (typeof auth === 'string') {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
    if (m) return m[1];
  }
  const proto = headers['sec-websocket-protocol'];
  if (typeof proto === 'string') {
    for (const entry of proto.split(',')) {
      const e = entry.trim();
      if (e.startsWith('jwt.token.')) return e.slice('jwt.token.'.length);
    }
  }
  return undefined;
}
