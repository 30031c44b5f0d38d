import { readFileSync } from 'node:fs';
import type { Dispatcher } from 'undici';
import { InvalidArgumentError } from '../errors/index.js';
import type { LedgerClientOptions } from './ledger-client-options.js';
import { resolveProxy, type ResolvedProxy } from './http/resolve-proxy.js';

/** {@link LedgerClientOptions} with defaults applied and every field checked. */
export interface ResolvedClientOptions {
  readonly baseUrl: URL;
  /** Returns the token for one request (`''` for none). Called before every request. */
  readonly getToken: () => Promise<string>;
  /** True when `token` is a provider, so a 401 may be retried with a fresh token. */
  readonly refreshableToken: boolean;
  readonly dispatcher: Dispatcher | undefined;
  /** Extra headers, names lower-cased. */
  readonly headers: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  /** How long a WebSocket upgrade may wait for its answer (`LedgerClientOptions.webSocketHandshakeTimeoutMs`). */
  readonly webSocketHandshakeTimeoutMs: number;
  readonly validateResponses: boolean;
  /** The TLS material read from `LedgerClientOptions.tls`, as Node's `tls.connect` options (undefined without). */
  readonly tls: { readonly ca?: Buffer; readonly cert?: Buffer; readonly key?: Buffer } | undefined;
  /** The proxy connections to the participant tunnel through (`LedgerClientOptions.proxy` or the environment), if any. */
  readonly proxy: ResolvedProxy | undefined;
  /** The version given by the caller, if any (see `LedgerClientOptions.participantVersion`). */
  readonly participantVersion: string | undefined;
}

const lineBreak = /[\r\n]/;

function checkToken(token: unknown): string {
  if (typeof token !== 'string') throw new InvalidArgumentError('token', 'the token provider must return a string');
  // Never echo the token: the message only says what is wrong with it.
  if (lineBreak.test(token)) throw new InvalidArgumentError('token', 'must not contain line breaks');
  return token;
}

function resolveBaseUrl(raw: unknown): URL {
  if (typeof raw !== 'string' && !(raw instanceof URL)) {
    throw new InvalidArgumentError('baseUrl', 'must be a string or URL');
  }
  let url: URL;
  try {
    url = new URL(String(raw));
  } catch (error) {
    throw new InvalidArgumentError('baseUrl', 'must be an absolute http(s) URL', { cause: error });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InvalidArgumentError('baseUrl', `must use http: or https:, not ${url.protocol}`);
  }
  if (url.search !== '' || url.hash !== '') {
    throw new InvalidArgumentError('baseUrl', 'must not have a query or fragment');
  }
  if (url.username !== '' || url.password !== '') {
    throw new InvalidArgumentError('baseUrl', 'must not contain credentials; use the token option');
  }
  return url;
}

function resolveHeaders(raw: unknown): Record<string, string> {
  if (raw === undefined) return {};
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new InvalidArgumentError('headers', 'must be an object of header names to string values');
  }
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (typeof value !== 'string' || lineBreak.test(value) || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
      throw new InvalidArgumentError(`headers.${name}`, 'must be a valid header name with a single-line string value');
    }
    out[name.toLowerCase()] = value;
  }
  return out;
}

function readPem(option: string, path: unknown): Buffer | undefined {
  if (path === undefined) return undefined;
  if (typeof path !== 'string' || path === '') throw new InvalidArgumentError(option, 'must be the path of a PEM file');
  try {
    return readFileSync(path);
  } catch (error) {
    throw new InvalidArgumentError(option, `cannot be read: ${(error as Error).message}`, { cause: error });
  }
}

function resolveTls(tls: LedgerClientOptions['tls']): ResolvedClientOptions['tls'] {
  if (tls === undefined) return undefined;
  if (typeof tls !== 'object' || tls === null) throw new InvalidArgumentError('tls', 'must be an object with caFile, certFile, keyFile');
  const ca = readPem('tls.caFile', tls.caFile);
  const cert = readPem('tls.certFile', tls.certFile);
  const key = readPem('tls.keyFile', tls.keyFile);
  if ((cert === undefined) !== (key === undefined)) throw new InvalidArgumentError(cert === undefined ? 'tls.certFile' : 'tls.keyFile', 'a client certificate needs both certFile and keyFile');
  return { ...(ca === undefined ? {} : { ca }), ...(cert === undefined ? {} : { cert }), ...(key === undefined ? {} : { key }) };
}

/**
 * Checks {@link LedgerClientOptions} and applies the defaults (`timeoutMs` 30 000,
 * `webSocketHandshakeTimeoutMs` 3 000, `validateResponses` true, no token, no extra headers). Synchronous and side-effect free: no dispatcher is created here.
 *
 * @throws InvalidArgumentError naming the first bad option (`baseUrl`, `token`, `dispatcher`, `headers.<name>`,
 *   `timeoutMs`, `webSocketHandshakeTimeoutMs`, `validateResponses`, `participantVersion`, `tls.*`, `proxy.*` or the proxy variable of the
 *   environment that holds no proxy URL).
 */
export function resolveClientOptions(options: LedgerClientOptions): ResolvedClientOptions {
  if (typeof options !== 'object' || options === null) throw new InvalidArgumentError('options', 'must be an object');
  const baseUrl = resolveBaseUrl(options.baseUrl);
  const token = options.token;
  let getToken: () => Promise<string>;
  if (token === undefined) {
    getToken = () => Promise.resolve('');
  } else if (typeof token === 'string') {
    const checked = checkToken(token);
    getToken = () => Promise.resolve(checked);
  } else if (typeof token === 'function') {
    getToken = async () => checkToken(await token());
  } else {
    throw new InvalidArgumentError('token', 'must be a string or a function returning one');
  }
  const dispatcher = options.dispatcher;
  if (dispatcher !== undefined && (typeof dispatcher !== 'object' || dispatcher === null || typeof dispatcher.dispatch !== 'function')) {
    throw new InvalidArgumentError('dispatcher', 'must be an undici Dispatcher');
  }
  const timeoutMs = options.timeoutMs ?? 30_000;
  if (!Number.isSafeInteger(timeoutMs) || timeoutMs <= 0) {
    throw new InvalidArgumentError('timeoutMs', 'must be a positive integer number of milliseconds');
  }
  const webSocketHandshakeTimeoutMs = options.webSocketHandshakeTimeoutMs ?? 3_000;
  if (!Number.isSafeInteger(webSocketHandshakeTimeoutMs) || webSocketHandshakeTimeoutMs <= 0) {
    throw new InvalidArgumentError('webSocketHandshakeTimeoutMs', 'must be a positive integer number of milliseconds');
  }
  const validateResponses = options.validateResponses ?? true;
  if (typeof validateResponses !== 'boolean') throw new InvalidArgumentError('validateResponses', 'must be a boolean');
  const participantVersion = options.participantVersion;
  if (participantVersion !== undefined && (typeof participantVersion !== 'string' || !/^\d+\.\d+\.\d+/.test(participantVersion))) {
    throw new InvalidArgumentError('participantVersion', "must be a version string such as '3.5.10' (as GET /v2/version reports it)");
  }
  return {
    baseUrl,
    getToken,
    refreshableToken: typeof token === 'function',
    dispatcher,
    headers: resolveHeaders(options.headers),
    timeoutMs,
    webSocketHandshakeTimeoutMs,
    validateResponses,
    participantVersion,
    tls: resolveTls(options.tls),
    proxy: resolveProxy(baseUrl, options.proxy),
  };
}
