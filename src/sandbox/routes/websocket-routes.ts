import { SandboxError } from '../errors/sandbox-error.js';
import type { Route } from '../http/request-context.js';
import { allChannels } from '../ws/all-channels.js';

/**
 * The WebSocket endpoints as seen by a plain `GET` without an upgrade: the server's WebSocket directive
 * rejects such a request and its route chain ends in the legacy not-found route, so the answer is the
 * legacy 404 body (see docs/websocket-protocol.md). Listing them here also makes them part of the `Allow`
 * header of a 405 for another method on the same path.
 */
export const webSocketRoutes: readonly Route[] = allChannels.map((channel) => ({
  method: 'GET',
  pattern: channel.path,
  handler: (ctx) => {
    throw SandboxError.legacyNotFound(ctx.method, `http://${ctx.headers.host ?? 'localhost'}${ctx.req.url ?? ''}`);
  },
}));
