import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { Claims } from '../auth/claims.js';
import type { ResolvedSandboxOptions } from '../sandbox-options.js';
import type { ParticipantState } from '../participant/participant-state.js';

/**
 * Everything a route handler sees. The body is read on demand (`body()`), because the real server decodes
 * it before anything else; `claims()` resolves the caller's token on demand, because each operation checks
 * authorization at its own point in its validation order (docs/server-behavior.md#authentication-and-authorization).
 */
export interface RequestContext {
  readonly method: string;
  /** The request path without the query. */
  readonly path: string;
  readonly url: URL;
  /** Path parameters, URL-decoded (`user-id`). */
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  readonly headers: IncomingHttpHeaders;
  /** W3C trace id of the request (from `traceparent`, else generated). */
  readonly traceId: string;
  readonly state: ParticipantState;
  readonly options: ResolvedSandboxOptions;
  /** Aborted when the client disconnects or the request times out. */
  readonly signal: AbortSignal;
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  /** The parsed JSON body; throws the 400 text/plain decode failure or the 413 for an oversized body. */
  body(): Promise<unknown>;
  /** The caller's claims; throws the redacted 401/403 (or `INVALID_TOKEN`) when they cannot be resolved. */
  claims(): Promise<Claims>;
}

/** What a handler returns: a JSON value to send with 200 (or `status`), or `handled` if it wrote the response. */
export type Reply = { readonly json: unknown; readonly status?: number } | { readonly handled: true };

/** A route handler. Throw a `SandboxError` to answer with an error. */
export type Handler = (ctx: RequestContext) => Promise<Reply> | Reply;

/** A route: method, path pattern with `{param}` segments, and handler. */
export interface Route {
  readonly method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  readonly pattern: string;
  readonly handler: Handler;
}
