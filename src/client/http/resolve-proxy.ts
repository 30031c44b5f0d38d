import { InvalidArgumentError } from '../../errors/index.js';

/** The forward proxy a client tunnels through (HTTP `CONNECT`), with its credentials kept apart from its name. */
export interface ResolvedProxy {
  /** The proxy's URL without credentials, for messages: `http://proxy:3128`. */
  readonly display: string;
  readonly protocol: 'http:' | 'https:';
  readonly hostname: string;
  readonly port: number;
  /** `Basic <base64>` from the URL's `user:password`, sent as `Proxy-Authorization`; never shown. */
  readonly authorization: string | undefined;
  /** Where the proxy came from: `proxy.url`, or the environment variable's name. */
  readonly source: string;
}

/** The explicit proxy settings of a client (see `LedgerClientOptions.proxy`). */
export interface ProxySettings {
  readonly url?: string | URL | undefined;
  readonly noProxy?: string | undefined;
}

const defaultPorts: Readonly<Record<string, number>> = { 'http:': 80, 'https:': 443 };

/** The first variable of `names` that is set (even to `''`), as undici's `EnvHttpProxyAgent` reads them. */
function fromEnv(env: NodeJS.ProcessEnv, names: readonly string[]): { name: string; value: string } | undefined {
  for (const name of names) {
    const value = env[name];
    if (value !== undefined) return { name, value };
  }
  return undefined;
}

/**
 * Whether `target` bypasses the proxy by the `NO_PROXY` list `noProxy`, with the rules of undici's
 * `EnvHttpProxyAgent` (docs/network-paths.md): entries separated by commas or white space; `*` alone
 * bypasses everything; an entry `host` or `host:port` (a leading `.` or `*.` is dropped) matches that host
 * and its subdomains, case-insensitively, and with a port only that port (the URL's default port counts).
 * IP addresses match literally (no CIDR ranges); `localhost` is not implied.
 */
export function bypassesProxy(target: URL, noProxy: string): boolean {
  if (noProxy.trim() === '*') return true;
  const hostname = target.host.replace(/:\d*$/, '').toLowerCase();
  const port = Number.parseInt(target.port, 10) || defaultPorts[target.protocol] || 0;
  for (const raw of noProxy.split(/[,\s]/)) {
    if (raw === '') continue;
    const parsed = /^(.+):(\d+)$/.exec(raw);
    const entryHost = (parsed?.[1] ?? raw).replace(/^\*?\./, '').toLowerCase();
    const entryPort = parsed?.[2] === undefined ? 0 : Number.parseInt(parsed[2], 10);
    if (entryPort !== 0 && entryPort !== port) continue;
    if (hostname === entryHost || hostname.endsWith(`.${entryHost}`)) return true;
  }
  return false;
}

function parseProxyUrl(raw: string | URL, source: string): ResolvedProxy {
  let text = String(raw).trim();
  // `HTTP_PROXY=proxy:3128` (no scheme) is common in the wild; like curl, read it as http://
  if (!(raw instanceof URL) && !text.includes('://')) text = `http://${text}`;
  let url: URL;
  try {
    url = new URL(text);
  } catch (error) {
    // the raw value may hold credentials: never echo it
    throw new InvalidArgumentError(source, 'must be a proxy URL such as http://proxy:3128', { cause: error });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InvalidArgumentError(source, `must be an http: or https: proxy URL, not ${url.protocol}`);
  }
  const authorization =
    url.username === '' && url.password === ''
      ? undefined
      : `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`;
  const port = Number.parseInt(url.port, 10) || (defaultPorts[url.protocol] ?? 80);
  return {
    display: `${url.protocol}//${url.host}`,
    protocol: url.protocol,
    hostname: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port,
    authorization,
    source,
  };
}

/**
 * The proxy that connections to `target` (the client's base URL; its WebSockets go to the same origin) go
 * through, or `undefined` for a direct connection:
 * - `settings === false`: direct, whatever the environment says;
 * - `settings` given: `settings.url` (for every scheme), unless `settings.noProxy` lists the host;
 * - `undefined`: the environment, as undici's `EnvHttpProxyAgent` reads it: for an `https:` target
 *   `https_proxy`, `HTTPS_PROXY`, then the `http:` choice; for an `http:` target `http_proxy`, `HTTP_PROXY`;
 *   the lower-case name wins, an empty value means none; then `no_proxy` / `NO_PROXY`.
 * A proxy URL without a scheme is read as `http://`.
 *
 * @throws InvalidArgumentError naming the option or the variable when its URL is not an http(s) URL.
 */
export function resolveProxy(target: URL, settings: ProxySettings | false | undefined, env: NodeJS.ProcessEnv = process.env): ResolvedProxy | undefined {
  if (settings === false) return undefined;
  if (settings !== undefined) {
    if (typeof settings !== 'object' || settings === null) throw new InvalidArgumentError('proxy', 'must be { url, noProxy } or false');
    if (settings.noProxy !== undefined && typeof settings.noProxy !== 'string') {
      throw new InvalidArgumentError('proxy.noProxy', 'must be a NO_PROXY list such as "localhost,.internal"');
    }
    if (settings.url === undefined || settings.url === '') return undefined;
    if (typeof settings.url !== 'string' && !(settings.url instanceof URL)) throw new InvalidArgumentError('proxy.url', 'must be a string or URL');
    if (bypassesProxy(target, settings.noProxy ?? '')) return undefined;
    return parseProxyUrl(settings.url, 'proxy.url');
  }
  const http = fromEnv(env, ['http_proxy', 'HTTP_PROXY']);
  const https = fromEnv(env, ['https_proxy', 'HTTPS_PROXY']);
  const chosen = target.protocol === 'https:' && https !== undefined && https.value !== '' ? https : http;
  if (chosen === undefined || chosen.value === '') return undefined;
  if (bypassesProxy(target, fromEnv(env, ['no_proxy', 'NO_PROXY'])?.value ?? '')) return undefined;
  return parseProxyUrl(chosen.value, chosen.name);
}
