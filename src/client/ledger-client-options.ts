import type { Dispatcher } from 'undici';

/**
 * Options of {@link createLedgerClient}. Everything except `baseUrl` is optional; the defaults are given
 * per field. Options are checked when the client is created (an `InvalidArgumentError` names the field).
 */
export interface LedgerClientOptions {
  /**
   * The JSON Ledger API root, e.g. `http://localhost:7575`. `http:` or `https:` only, no query or fragment.
   * A path is kept as a prefix: `https://host/ledger` sends to `https://host/ledger/v2/...`.
   */
  readonly baseUrl: string | URL;
  /**
   * The JWT sent as `Authorization: Bearer <token>`: a fixed string, or a provider called before EVERY
   * request (so it can hand out a refreshed token). With a provider, a 401 answer makes the client call it
   * once more and repeat that request once. A provider result of `""` sends no `Authorization` header.
   * Default: no token. The token never appears in an error the client creates.
   */
  readonly token?: string | (() => string | Promise<string>) | undefined;
  /**
   * The undici dispatcher to send with (for proxies, interceptors, `MockAgent` in tests). It is never
   * closed by the client. Default: a private `Agent`, closed by `client.close()`; the global dispatcher is
   * never used or changed.
   */
  readonly dispatcher?: Dispatcher | undefined;
  /**
   * Extra headers sent with every request. `Authorization` from `token` wins. Each request sends its own W3C
   * `traceparent` (its span's with an OpenTelemetry SDK, else a fresh one); a `traceparent` or `tracestate`
   * given here replaces it on every request.
   */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /**
   * Deadline of a unary call, connect + headers + body, in ms. Default `30_000`. Does not apply to the
   * long-polling `updates()`/`iterateUpdates()`, which wait at least 25 s for headers and body data.
   */
  readonly timeoutMs?: number | undefined;
  /**
   * How long a WebSocket upgrade may wait for its answer (connect + the participant's `101`), in ms. Default
   * `3_000`: the participant answers an upgrade as soon as it has checked the token, so a longer silence
   * means something on the path (a proxy) holds the upgrade. The stream then fails with `TransportError`
   * `HANDSHAKE_TIMEOUT`, and a read with transport `'auto'` falls back to HTTP at once
   * (docs/network-paths.md).
   */
  readonly webSocketHandshakeTimeoutMs?: number | undefined;
  /**
   * Check every response against the zod wire schema (`SCHEMA_MISMATCH` on failure) and normalise it
   * (numeric strings to numbers, unknown variants to `{unknownVariant, payload}`). Default `true`. Turning
   * it off is the documented opt-out for trusted hot paths: responses are then returned as parsed JSON,
   * typed but unchecked.
   */
  readonly validateResponses?: boolean | undefined;
  /**
   * The participant's version (`3.5.10`), when known: the client then never reads `GET /v2/version` to
   * choose endpoints (docs/participant-versions.md). Default: read once, on the first operation whose
   * endpoint depends on the version, and again after a connection to the participant was lost.
   */
  readonly participantVersion?: string | undefined;
  /**
   * TLS for an `https://` participant, on both transports (undici's connections and `ws`'s): `caFile`, a PEM
   * file of the certificate authorities to trust instead of Node's defaults (a private CA); `certFile` and
   * `keyFile`, the PEM client certificate and its key for a server that asks for one. Read when the client
   * is created; an unreadable file is `InvalidArgumentError` naming the option. Ignored with `dispatcher`
   * for HTTP (configure that dispatcher's `connect` options), still applied to WebSockets. See
   * docs/network-paths.md.
   */
  readonly tls?: LedgerClientTlsOptions | undefined;
  /**
   * The HTTP forward proxy to reach the participant through, on both transports (an HTTP `CONNECT` tunnel
   * per connection; TLS to an `https://` participant runs inside it, with `tls`). Default: the environment,
   * read when the client is created as undici's `EnvHttpProxyAgent` reads it: `https_proxy`/`HTTPS_PROXY`
   * (then the HTTP one) for an `https://` base URL, `http_proxy`/`HTTP_PROXY` for `http://`, and
   * `no_proxy`/`NO_PROXY`. `{ url, noProxy }` replaces the environment (`noProxy` in the `NO_PROXY` syntax);
   * `false` connects directly whatever the environment says. Credentials in the proxy URL
   * (`http://user:password@proxy:3128`) are sent as `Proxy-Authorization` and never shown. A proxy that
   * refuses the tunnel is `TransportError` `PROXY_REFUSED`. Ignored with `dispatcher` for HTTP, still
   * applied to WebSockets. See docs/network-paths.md.
   */
  readonly proxy?: LedgerClientProxyOptions | false | undefined;
}

/** An explicit proxy of {@link LedgerClientOptions.proxy}. */
export interface LedgerClientProxyOptions {
  /** The proxy, `http://host:port` or `https://host:port`, with optional `user:password@`. No `url`: direct. */
  readonly url?: string | URL | undefined;
  /** Hosts reached directly, as in `NO_PROXY`: `localhost,.internal,10.0.0.5:7575`, or `*` for all. */
  readonly noProxy?: string | undefined;
}

/** The TLS files of {@link LedgerClientOptions.tls} (PEM). */
export interface LedgerClientTlsOptions {
  readonly caFile?: string | undefined;
  readonly certFile?: string | undefined;
  readonly keyFile?: string | undefined;
}
