import { setMaxListeners } from 'node:events';
import type { IncomingMessage, ClientRequest } from 'node:http';
import type * as Ws from 'ws';
import { AbortError, ErrorCodes, isLedgerRxError, LedgerApiError, ProtocolError, TransportError } from '../../errors/index.js';
import type { FrameSocket } from '../../streams/index.js';
import { buildRequestUrl } from '../http/build-request-url.js';
import { jwtExpiresAt } from './jwt-expires-at.js';
import { createTunnelAgent } from './create-tunnel-agent.js';
import { mapRequestError } from '../http/map-request-error.js';
import { readBoundedText } from '../http/read-bounded-text.js';
import type { ResolvedClientOptions } from '../resolve-client-options.js';
import { forbiddenHint } from '../http/forbidden-hint.js';
import { toHttpStatusError } from '../http/to-http-status-error.js';
import { traceRequest, type RequestAttributes, type RequestTrace } from '../../tracing/trace-request.js';

/** An open socket of a {@link WebSocketTransport}, ready for the request frame; paused until it is observed. */
export interface OpenWebSocket {
  readonly socket: FrameSocket & { send(text: string): void };
  /** `GET /v2/... (WebSocket)`, for messages. */
  readonly request: string;
  /** When the token sent with this connection expires (its `exp`, epoch ms), when it is a JWT that says. */
  readonly tokenExpiresAt: number | undefined;
  /** Maps an `error` event of the open socket to the error to report (see {@link createWebSocketTransport}). */
  readonly mapError: (error: unknown) => Error;
  /** The connection's span, open until the stream ends: whoever reads the socket ends it. */
  readonly trace: RequestTrace;
  /** Explains a 403 error frame answering `body` (see `forbiddenHint`), from the request and this connection's token. */
  readonly explainForbidden: (body: unknown) => string | undefined;
}

/** The WebSocket layer of a ledger client, beside its HTTP layer. */
export interface WebSocketTransport {
  /**
   * Opens `GET path` as a WebSocket with the token in the subprotocols and resolves once it is open. A
   * provider token is fetched for every connection; an upgrade answered 401 is tried once more with a fresh
   * one. Rejects with `LedgerApiError` for an upgrade answered with another status (its body mapped like an
   * HTTP error: a Canton error keeps its ten fields, anything else is `HTTP_<status>`), `TransportError`
   * when the connection fails (`HANDSHAKE_TIMEOUT` when the upgrade got no answer in time), `AbortError` when
   * `signal` fires or the client was closed. `body`, the request frame to be sent, only explains a refused
   * upgrade (a 403's `hint`).
   */
  connect(path: string, signal: AbortSignal | undefined, spanAttributes?: RequestAttributes, body?: object): Promise<OpenWebSocket>;
  /** Fires when the client is closed: streams in flight end with `AbortError`. */
  readonly closed: AbortSignal;
  /** Closes the transport: connections in progress fail with `AbortError`, open streams end. */
  abortAll(): void;
}

/** Settings of {@link createWebSocketTransport}. */
export interface WebSocketTransportConfig extends Pick<ResolvedClientOptions, 'baseUrl' | 'getToken' | 'refreshableToken' | 'headers' | 'timeoutMs'> {
  /** How long an upgrade may wait for its answer (connect + `101`). Default `timeoutMs`. */
  readonly webSocketHandshakeTimeoutMs?: number | undefined;
  /** The proxy to tunnel every connection through (`createTunnelAgent`), if any. */
  readonly proxy?: ResolvedClientOptions['proxy'];
  /** TLS material for `wss:` (trusted CAs, client certificate and key), as `tls.connect` takes it. */
  readonly tls?: ResolvedClientOptions['tls'];
  /** Largest frame accepted, in bytes. Default 256 MiB. */
  readonly maxFrameBytes?: number | undefined;
  /** Largest error body read from a refused upgrade. Default 1 MiB. */
  readonly maxErrorBytes?: number | undefined;
}

type WsModule = typeof Ws;
const ignore = (): void => undefined;
let wsModule: Promise<WsModule> | undefined;

/** `ws` is loaded on the first connection, so `import 'ledger-rx'` does not load it. */
function loadWs(): Promise<WsModule> {
  wsModule ??= import('ws');
  return wsModule;
}

/**
 * The subprotocols the JSON Ledger API reads: the token as `jwt.token.<JWT>` (the server takes the first
 * entry with that prefix), and `daml.ws.auth`, which the server always answers with.
 */
export function webSocketProtocols(token: string): string[] {
  return token === '' ? ['daml.ws.auth'] : [`jwt.token.${token}`, 'daml.ws.auth'];
}

/** The message of a handshake that timed out (after the request), which the `'auto'` transport repeats as its reason. */
function handshakeTimeoutText(ms: number): string {
  return `WebSocket handshake got no answer within ${ms} ms`;
}

/**
 * Maps an `error` event of a WebSocket: a frame over the size limit is `ProtocolError`
 * `UNEXPECTED_RESPONSE` (reading it again would fail again); another broken frame (`WS_ERR_*`) is a
 * retryable `TransportError` `CONNECTION_RESET`, like a network failure, which keeps `mapRequestError`'s
 * mapping; anything unrecognised is `CONNECTION_RESET` too.
 */
export function webSocketError(error: unknown, request: string): Error {
  const code = (error as { code?: unknown } | null)?.code;
  const detail = error instanceof Error ? error.message : String(error);
  if (code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') {
    return new ProtocolError(ErrorCodes.UNEXPECTED_RESPONSE, `${request}: a frame is larger than the client accepts (${detail})`, { cause: error });
  }
  const mapped = mapRequestError(error, request);
  if (isLedgerRxError(mapped)) return mapped;
  return new TransportError(ErrorCodes.CONNECTION_RESET, `${request}: ${detail}`, { request, cause: error });
}

/**
 * Creates the WebSocket layer of a client: `ws` connections to the base URL (`http:` → `ws:`, `https:` →
 * `wss:`, the path prefix kept), through the client's proxy if it has one (an HTTP `CONNECT` tunnel,
 * `createTunnelAgent`), with the client's extra headers, no compression, `webSocketHandshakeTimeoutMs`
 * as the handshake timeout (connect and the `101`; `TransportError` `HANDSHAKE_TIMEOUT` when it passes), and the token only in the `Sec-WebSocket-Protocol` header (never in a URL or
 * message). Each `connect()` is a span (`GET /v2/updates (WebSocket)`, `traceRequest`) whose W3C
 * `traceparent` goes with the upgrade request; it ends here when the connection fails, else with the stream.
 */
export function createWebSocketTransport(config: WebSocketTransportConfig): WebSocketTransport {
  const closing = new AbortController();
  // every call in flight listens to the client's closing signal (and removes its listener when it ends), so
  // more than ten at once is normal use, not a leak: without this Node prints MaxListenersExceededWarning
  setMaxListeners(0, closing.signal);
  const maxErrorBytes = config.maxErrorBytes ?? 1024 * 1024;
  const handshakeTimeoutMs = config.webSocketHandshakeTimeoutMs ?? config.timeoutMs;

  const urlOf = (path: string): URL => {
    const url = buildRequestUrl(config.baseUrl, path);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    return url;
  };

  function openOnce(ws: WsModule, path: string, token: string, signal: AbortSignal | undefined, trace: RequestTrace, body: object | undefined): Promise<OpenWebSocket> {
    const request = `GET ${path} (WebSocket)`;
    const explainForbidden = (frame: unknown): string | undefined => forbiddenHint({ method: 'GET', path, body: frame, token });
    const url = urlOf(path);
    return new Promise<OpenWebSocket>((resolve, reject) => {
      let settled = false;
      const socket = new ws.default(url, webSocketProtocols(token), {
        headers: { ...trace.headers, ...config.headers },
        perMessageDeflate: false,
        handshakeTimeout: handshakeTimeoutMs,
        maxPayload: config.maxFrameBytes ?? 256 * 1024 * 1024,
        followRedirects: false,
        ...config.tls,
        ...(config.proxy === undefined ? {} : { agent: createTunnelAgent(config.proxy, url.protocol === 'wss:', config.timeoutMs, request) }),
      });
      const settle = (outcome: () => void): void => {
        if (settled) return;
        settled = true;
        socket.off('open', onOpen);
        socket.off('unexpected-response', onUnexpected);
        closing.signal.removeEventListener('abort', onAbort);
        signal?.removeEventListener('abort', onAbort);
        outcome();
      };
      const giveUp = (error: Error): void => {
        settle(() => reject(error));
        socket.terminate();
      };
      const onOpen = (): void =>
        settle(() => {
          socket.pause(); // frames that follow the handshake at once wait until the stream listens (it resumes)
          socket.off('error', onError);
          socket.on('error', ignore); // until the stream listens: an error event without a listener would throw
          resolve({ socket, request, tokenExpiresAt: token === '' ? undefined : jwtExpiresAt(token), mapError: (e) => webSocketError(e, request), trace, explainForbidden });
        });
      const onUnexpected = (req: ClientRequest, res: IncomingMessage): void => {
        readBoundedText(res, maxErrorBytes).then(
          ({ text }) => {
            const status = res.statusCode ?? 0;
            giveUp(toHttpStatusError({ status, headers: res.headers, text }, request, status === 403 ? explainForbidden(body) : undefined));
          },
          (error: unknown) => giveUp(webSocketError(error, request)),
        );
        req.on('error', () => undefined);
      };
      const onError = (error: unknown): void => {
        const timedOut = error instanceof Error && /handshake has timed out/i.test(error.message);
        giveUp(timedOut
          ? new TransportError(ErrorCodes.HANDSHAKE_TIMEOUT, `${request}: ${handshakeTimeoutText(handshakeTimeoutMs)}`, { request, cause: error })
          : webSocketError(error, request));
      };
      const onAbort = (): void => {
        giveUp(new AbortError(closing.signal.aborted ? `${request} was aborted: the ledger client was closed` : `${request} was aborted`));
      };
      socket.on('open', onOpen);
      socket.on('unexpected-response', onUnexpected);
      socket.on('error', onError);
      closing.signal.addEventListener('abort', onAbort, { once: true });
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  return {
    closed: closing.signal,

    async connect(path, signal, spanAttributes, body) {
      const ws = await loadWs();
      const url = urlOf(path);
      const trace = await traceRequest(`GET ${path} (WebSocket)`, {
        'http.request.method': 'GET',
        'url.full': url.href,
        'server.address': url.hostname,
        'server.port': Number(url.port || (url.protocol === 'wss:' ? 443 : 80)),
        'network.protocol.name': 'websocket',
        ...spanAttributes,
      });
      try {
        for (let attempt = 1; ; attempt++) {
          if (closing.signal.aborted) throw new AbortError(`GET ${path} (WebSocket) was aborted: the ledger client was closed`);
          if (signal?.aborted) throw new AbortError(`GET ${path} (WebSocket) was aborted`);
          const token = await config.getToken();
          try {
            return await openOnce(ws, path, token, signal, trace, body);
          } catch (error) {
            if (error instanceof LedgerApiError && error.status === 401 && attempt === 1 && config.refreshableToken) continue;
            throw error;
          }
        }
      } catch (error) {
        trace.end({ error });
        throw error;
      }
    },

    abortAll() {
      closing.abort(new Error('the ledger client was closed'));
    },
  };
}
