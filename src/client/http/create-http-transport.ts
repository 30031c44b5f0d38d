import { setMaxListeners } from 'node:events';
import type { Dispatcher } from 'undici';
import { ErrorCodes, ProtocolError } from '../../errors/index.js';
import { buildRequestUrl } from './build-request-url.js';
import { mapRequestError, type AbortReason } from './map-request-error.js';
import { parseJsonText } from './parse-json-text.js';
import { readBoundedText } from './read-bounded-text.js';
import type { ResolvedClientOptions } from '../resolve-client-options.js';
import { stripEnvelopeNulls } from './strip-envelope-nulls.js';
import { forbiddenHint } from './forbidden-hint.js';
import { jwtPayload } from './jwt-payload.js';
import { toHttpStatusError } from './to-http-status-error.js';
import { traceRequest, type RequestAttributes, type RequestTrace } from '../../tracing/trace-request.js';
import { loadUndici } from './load-undici.js';

/** Whether `token` is a JWT whose `exp` has passed (read without verifying it). */
function expiredToken(token: string): boolean {
  const exp = jwtPayload(token)?.['exp'];
  return typeof exp === 'number' && exp * 1000 <= Date.now();
}

/** One API call, as the client methods describe it to the transport. */
export interface HttpCall {
  readonly method: 'GET' | 'POST' | 'PATCH';
  /** Path below the base URL, starting with `/v2/`, with path parameters already percent-encoded. */
  readonly path: string;
  /** The path's template for the span name, when the path holds a parameter (`/v2/users/{user-id}`). */
  readonly route?: string | undefined;
  /** Extra attributes of the request's span (e.g. the offsets of an updates request). */
  readonly spanAttributes?: RequestAttributes | undefined;
  readonly query?: Readonly<Record<string, string | number | undefined>> | undefined;
  /** Serialised as JSON when not `undefined`. */
  readonly body?: unknown;
  /** The caller's signal: aborting it cancels the call, which then fails with `AbortError`. */
  readonly signal?: AbortSignal | undefined;
  /**
   * Internal cancellation (unsubscribe, leaving a loop): cancels the call like `signal`, but is not
   * reported as the caller's abort, since nobody listens for the outcome any more.
   */
  readonly cancel?: AbortSignal | undefined;
}

/** A 2xx response whose body has not been read yet (for streaming). */
export interface OpenResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The body; destroying it releases the connection. */
  readonly body: Dispatcher.ResponseData['body'];
  /** Maps an error raised while reading the body (abort, reset, timeout) like a request error. */
  readonly mapError: (error: unknown) => unknown;
  /** The request's span: whoever reads the body ends it (with the elements read, or the failure). */
  readonly trace: RequestTrace;
}

/** The HTTP layer of a ledger client. */
export interface HttpTransport {
  /**
   * Sends a unary call under the client's deadline and returns the 2xx body, JSON-decoded and passed
   * through `parse`. Rejects with `LedgerApiError` (non-2xx), `TransportError`, `AbortError`, or
   * `ProtocolError` (`MALFORMED_JSON`, or an oversized body as `UNEXPECTED_RESPONSE`).
   */
  call<T>(call: HttpCall, parse: (value: unknown) => T): Promise<T>;
  /**
   * Sends a long-poll call without an overall deadline (headers and body data are each awaited for at
   * least 25 s) and resolves with the unread 2xx body; non-2xx answers reject like {@link call}.
   * Aborting `call.signal` cancels the request and the body.
   */
  open(call: HttpCall): Promise<OpenResponse>;
  /** Aborts every in-flight call (they reject with `AbortError`) and makes later calls fail the same way. */
  abortAll(): void;
}

/** Settings of {@link createHttpTransport}. */
export interface HttpTransportConfig extends Omit<ResolvedClientOptions, 'dispatcher' | 'validateResponses'> {
  readonly dispatcher: Dispatcher;
  /** Largest 2xx body a unary call reads. Default 64 MiB. */
  readonly maxResponseBytes?: number | undefined;
  /** Largest error body read. Default 1 MiB. */
  readonly maxErrorBytes?: number | undefined;
  /** Headers and body-data timeout of `open()`. Default and minimum 25 000 ms. */
  readonly streamTimeoutMs?: number | undefined;
}

interface Exchange {
  readonly signal: AbortSignal;
  readonly reason: () => AbortReason | undefined;
  readonly done: () => void;
}

/**
 * Creates the HTTP layer: undici `request()` on the given dispatcher, JSON bodies, `Accept:
 * application/json`, and `Authorization: Bearer <token>` with the token fetched before every request.
 * A 401 answer is retried exactly once, with a freshly fetched token, when the token is a provider; so is a 403
 * for a token that had expired when it was refused (its `exp`, read without verifying the token).
 * Every call is a span (`traceRequest`) and sends its W3C `traceparent`, unless the client's `headers` set one.
 * Non-2xx answers are read (at most 1 MiB) and turned into `LedgerApiError`s; network failures into
 * `TransportError`s (see `mapRequestError`). The token is only ever written into the request header.
 */
export function createHttpTransport(config: HttpTransportConfig): HttpTransport {
  const maxResponseBytes = config.maxResponseBytes ?? 64 * 1024 * 1024;
  const maxErrorBytes = config.maxErrorBytes ?? 1024 * 1024;
  const streamTimeoutMs = Math.max(25_000, config.streamTimeoutMs ?? 0);
  const closing = new AbortController();
  // every call in flight listens to the client's closing signal (and removes its listener when it ends), so
  // more than ten at once is normal use, not a leak: without this Node prints MaxListenersExceededWarning
  setMaxListeners(0, closing.signal);

  /**
   * One call's abort signal, fired by the client closing, the caller's signal, an internal cancel, or the
   * deadline. Listeners are added to those signals by hand and removed by `done()`: `AbortSignal.any()`
   * would leave a WeakRef behind on the client's long-lived signal for every request (~60 bytes each on
   * Node 20), a leak over the millions of requests of a long tail.
   */
  function begin(call: HttpCall, deadlineMs: number | undefined): Exchange {
    const controller = new AbortController();
    const abort = (reason: unknown) => {
      if (!controller.signal.aborted) controller.abort(reason);
    };
    const links: [AbortSignal, () => void][] = [];
    for (const source of [closing.signal, call.signal, call.cancel]) {
      if (source === undefined) continue;
      if (source.aborted) {
        abort(source.reason);
        break;
      }
      const onAbort = () => abort(source.reason);
      source.addEventListener('abort', onAbort, { once: true });
      links.push([source, onAbort]);
    }
    let deadlinePassed = false;
    const timer =
      deadlineMs === undefined
        ? undefined
        : setTimeout(() => {
            deadlinePassed = true;
            abort(new Error('deadline exceeded'));
          }, deadlineMs);
    timer?.unref();
    return {
      signal: controller.signal,
      reason: () => {
        if (call.signal?.aborted) return 'caller';
        if (closing.signal.aborted) return 'closed';
        if (deadlinePassed) return 'timeout';
        return undefined;
      },
      done: () => {
        clearTimeout(timer);
        for (const [source, onAbort] of links) source.removeEventListener('abort', onAbort);
        links.length = 0;
      },
    };
  }

  function headersFor(token: string, hasBody: boolean, trace: RequestTrace): Record<string, string> {
    const headers: Record<string, string> = { ...trace.headers, ...config.headers, accept: 'application/json' };
    if (hasBody) headers['content-type'] = 'application/json';
    if (token !== '') headers['authorization'] = `Bearer ${token}`;
    return headers;
  }

  /** The span of `call`: named `METHOD /route`, with the HTTP client attributes of OpenTelemetry's conventions. */
  function startTrace(call: HttpCall): Promise<RequestTrace> {
    const url = buildRequestUrl(config.baseUrl, call.path, call.query);
    return traceRequest(`${call.method} ${call.route ?? call.path}`, {
      'http.request.method': call.method,
      'url.full': url.href,
      'server.address': url.hostname,
      'server.port': Number(url.port || (url.protocol === 'https:' ? 443 : 80)),
      ...call.spanAttributes,
    });
  }

  async function exchange(call: HttpCall, ex: Exchange, timeoutMs: number, trace: RequestTrace): Promise<Dispatcher.ResponseData> {
    const label = `${call.method} ${call.path}`;
    const url = buildRequestUrl(config.baseUrl, call.path, call.query);
    const payload = call.body === undefined ? undefined : JSON.stringify(stripEnvelopeNulls(call.body));
    for (let attempt = 1; ; attempt++) {
      if (ex.signal.aborted) throw mapRequestError(ex.signal.reason, label, ex.reason(), timeoutMs);
      const token = await config.getToken();
      let response: Dispatcher.ResponseData;
      try {
        response = await loadUndici().request.call(config.dispatcher, {
          origin: url.origin,
          path: `${url.pathname}${url.search}`,
          method: call.method,
          headers: headersFor(token, payload !== undefined, trace),
          body: payload ?? null,
          signal: ex.signal,
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
        });
      } catch (error) {
        throw mapRequestError(error, label, ex.reason(), timeoutMs);
      }
      const status = response.statusCode;
      if (status >= 200 && status < 300) return response;
      // a refused token is asked for again once, when a provider can give another: a 401, or a 403 (the
      // participant's answer to an expired token) for a token whose `exp` had passed when it was refused
      if (attempt === 1 && config.refreshableToken && (status === 401 || (status === 403 && expiredToken(token)))) {
        await response.body.dump().catch(() => undefined);
        continue;
      }
      let text: string;
      try {
        ({ text } = await readBoundedText(response.body, maxErrorBytes));
      } catch (error) {
        throw mapRequestError(error, label, ex.reason(), timeoutMs);
      }
      // a 403 is redacted by the participant: say what it checked, as far as the client can tell
      const hint = status === 403 ? forbiddenHint({ method: call.method, path: call.path, body: call.body, token }) : undefined;
      throw toHttpStatusError({ status, headers: response.headers, text }, label, hint);
    }
  }

  return {
    async call<T>(call: HttpCall, parse: (value: unknown) => T): Promise<T> {
      const label = `${call.method} ${call.path}`;
      const trace = await startTrace(call);
      const ex = begin(call, config.timeoutMs);
      try {
        const response = await exchange(call, ex, config.timeoutMs, trace);
        let read: { text: string; truncated: boolean };
        try {
          read = await readBoundedText(response.body, maxResponseBytes);
        } catch (error) {
          throw mapRequestError(error, label, ex.reason(), config.timeoutMs);
        }
        if (read.truncated) {
          throw new ProtocolError(ErrorCodes.UNEXPECTED_RESPONSE, `${label}: the response body exceeds ${maxResponseBytes} bytes`);
        }
        const value = parse(parseJsonText(read.text, label));
        trace.end({ status: response.statusCode });
        return value;
      } catch (error) {
        trace.end({ error });
        throw error;
      } finally {
        ex.done();
      }
    },

    async open(call: HttpCall): Promise<OpenResponse> {
      const label = `${call.method} ${call.path}`;
      const trace = await startTrace(call);
      const ex = begin(call, undefined);
      let response: Dispatcher.ResponseData;
      try {
        response = await exchange(call, ex, streamTimeoutMs, trace);
      } catch (error) {
        ex.done();
        trace.end({ error });
        throw error;
      }
      // The signal must keep working while the body is read; it is released once the body is closed.
      response.body.once('close', () => ex.done());
      return {
        status: response.statusCode,
        headers: response.headers,
        body: response.body,
        mapError: (error) => mapRequestError(error, label, ex.reason(), streamTimeoutMs),
        trace,
      };
    },

    abortAll(): void {
      closing.abort(new Error('the ledger client was closed'));
    },
  };
}
