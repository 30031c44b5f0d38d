import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Claims } from '../auth/claims.js';
import { resolveClaims, wildcardClaims } from '../auth/claims.js';
import { extractToken } from '../auth/extract-token.js';
import { verifyToken } from '../auth/verify-token.js';
import { ErrorDefs } from '../errors/error-defs.js';
import { SandboxError } from '../errors/sandbox-error.js';
import type { ParticipantState } from '../participant/participant-state.js';
import { readJsonBody } from './read-json-body.js';
import type { RequestContext, Route } from './request-context.js';
import { Router } from './router.js';

/** Why a request's work is aborted when its client went away. */
const clientGone = new Error('the client closed the connection');

/** A W3C `traceparent` header: version, 32-hex trace id (captured), 16-hex parent id, flags. */
export const traceparentPattern = /^[0-9a-f]{2}-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}$/;

/** The trace id of a request: from a valid `traceparent` header, else 32 random hex digits. */
export function traceIdOf(headers: IncomingMessage['headers']): string {
  const header = headers.traceparent;
  const m = typeof header === 'string' ? traceparentPattern.exec(header.trim()) : null;
  return m?.[1] ?? randomBytes(16).toString('hex');
}

/** Sends an error response unless the response has already started. */
export function sendError(res: ServerResponse, error: SandboxError, traceId: string, participant: string): void {
  if (res.headersSent || res.writableEnded || res.destroyed) {
    res.destroy();
    return;
  }
  const r = error.toResponse(traceId, participant);
  res.writeHead(r.status, { 'content-type': r.contentType, ...r.headers });
  res.end(r.body);
}

/**
 * Builds the `node:http` request listener of the sandbox: routing (405 with `Allow` for a known path with
 * another method, the legacy 404 body for an unknown path), per-request trace ids, lazy body decoding and
 * token resolution, the JSON API request timeout (503 text/plain), and the mapping of every thrown error to
 * the real server's response. Any unexpected exception becomes `LEDGER_API_INTERNAL_ERROR` (500) — a bug
 * in the sandbox, which the fuzz tests hunt for.
 */
export function createRequestHandler(state: ParticipantState, routes: readonly Route[]) {
  const router = new Router(routes);
  const options = state.options;
  const secret = options.authSecret === undefined ? undefined : new TextEncoder().encode(options.authSecret);

  return (req: IncomingMessage, res: ServerResponse): void => {
    const traceId = traceIdOf(req.headers);
    const method = (req.method ?? 'GET').toUpperCase();
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://sandbox.invalid');
    } catch {
      sendError(res, SandboxError.legacyNotFound(method, req.url ?? ''), traceId, state.participantId);
      return;
    }
    const match = router.match(method, url.pathname);
    if (match.kind === 'not-found') {
      req.resume();
      sendError(res, SandboxError.legacyNotFound(method, `http://${req.headers.host ?? 'localhost'}${req.url ?? ''}`), traceId, state.participantId);
      return;
    }
    if (match.kind === 'method-not-allowed') {
      req.resume();
      sendError(res, SandboxError.text(405, 'Method Not Allowed', { allow: match.allowed.join(', ') }), traceId, state.participantId);
      return;
    }

    const abort = new AbortController();
    // A finished response needs no abort (which would build a DOMException per request).
    res.on('close', () => {
      if (!res.writableFinished) abort.abort(clientGone);
    });
    const timer = setTimeout(() => {
      sendError(
        res,
        SandboxError.text(503, 'The server was not able to produce a timely response to your request.\r\nPlease try again in a short while!'),
        traceId,
        state.participantId,
      );
      abort.abort();
    }, options.requestTimeoutMs);
    timer.unref();

    let bodyPromise: Promise<unknown> | undefined;
    let claimsPromise: Promise<Claims> | undefined;
    const ctx: RequestContext = {
      method,
      path: url.pathname,
      url,
      params: match.params,
      query: url.searchParams,
      headers: req.headers,
      traceId,
      state,
      options,
      signal: abort.signal,
      req,
      res,
      body: () => (bodyPromise ??= readJsonBody(req, options.maxRequestBodyBytes)),
      claims: () =>
        (claimsPromise ??= secret === undefined
          ? Promise.resolve(wildcardClaims)
          : verifyToken(extractToken(req.headers), secret, state.participantId).then((t) => resolveClaims(t, state.users))),
    };

    Promise.resolve()
      .then(() => match.handler(ctx))
      .then((reply) => {
        if ('handled' in reply) return;
        if (res.headersSent || res.destroyed) return;
        const body = JSON.stringify(reply.json);
        res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
        res.end(body);
      })
      .catch((error: unknown) => {
        const e = error instanceof SandboxError ? error : SandboxError.jsonLayer(ErrorDefs.LEDGER_API_INTERNAL_ERROR, `Unexpected error: ${String(error)}`);
        if (!bodyPromise && !req.readableEnded) req.resume();
        sendError(res, e, traceId, state.participantId);
      })
      .finally(() => clearTimeout(timer));
  };
}
