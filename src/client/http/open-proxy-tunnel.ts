import { connect as netConnect, isIPv6, type Socket } from 'node:net';
import { connect as tlsConnect, type ConnectionOptions, type TLSSocket } from 'node:tls';
import { ErrorCodes, TransportError } from '../../errors/index.js';
import { mapRequestError } from './map-request-error.js';
import type { ResolvedProxy } from './resolve-proxy.js';

/** Where a tunnel goes, and how long the proxy may take to open it. */
export interface TunnelTarget {
  /** The participant's host name or IP address (IPv6 with or without brackets). */
  readonly host: string;
  readonly port: number;
  /** Time allowed for connecting to the proxy and its answer to `CONNECT`, in ms. */
  readonly timeoutMs: number;
  /** `METHOD /path` of the request the tunnel is for, named in errors, when known. */
  readonly request?: string | undefined;
}

/** Largest answer header of a proxy read before the tunnel is given up. */
const maxHeaderBytes = 64 * 1024;

/**
 * Opens an HTTP `CONNECT` tunnel through `proxy` to `target` (docs/network-paths.md): connects to the proxy
 * (TLS for an `https:` proxy, with Node's trusted CAs), sends `CONNECT host:port` with `Proxy-Authorization`
 * when the proxy URL had credentials, and resolves with the raw socket once the proxy answers 200; the
 * caller then speaks HTTP, TLS or WebSocket through it. Rejects with a `TransportError`:
 * `PROXY_REFUSED` naming the proxy and its status line when it answers anything else (retryable only for
 * 5xx); `CONNECTION_FAILED` when the proxy can't be reached; `REQUEST_TIMEOUT` when it does not answer within
 * `timeoutMs`; `CONNECTION_RESET` when it closes before answering. Messages never hold the credentials.
 */
export function openProxyTunnel(proxy: ResolvedProxy, target: TunnelTarget): Promise<Socket> {
  const bare = target.host.replace(/^\[(.*)\]$/, '$1');
  const authority = `${isIPv6(bare) ? `[${bare}]` : bare}:${target.port}`;
  const via = `through the proxy ${proxy.display} (${proxy.source})`;
  const request = target.request ?? `CONNECT ${authority}`;
  const prefix = target.request === undefined ? '' : `${target.request}: `;
  return new Promise<Socket>((resolve, reject) => {
    let settled = false;
    const socket: Socket | TLSSocket =
      proxy.protocol === 'https:'
        ? tlsConnect({ host: proxy.hostname, port: proxy.port, servername: isIPv6(proxy.hostname) || /^[\d.]+$/.test(proxy.hostname) ? '' : proxy.hostname })
        : netConnect({ host: proxy.hostname, port: proxy.port });
    const timer = setTimeout(() => fail(new TransportError(ErrorCodes.REQUEST_TIMEOUT, `${prefix}no answer to CONNECT ${authority} ${via} within ${target.timeoutMs} ms`, { request })), target.timeoutMs);
    timer.unref();
    let buffered = Buffer.alloc(0);
    const cleanup = (): void => {
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('error', onError);
      socket.off('close', onClose);
    };
    function fail(error: Error): void {
      if (settled) return;
      settled = true;
      cleanup();
      socket.destroy();
      reject(error);
    }
    const onError = (error: Error): void => {
      const mapped = mapRequestError(error, request);
      const code = mapped instanceof TransportError ? mapped.code : ErrorCodes.CONNECTION_FAILED;
      fail(new TransportError(code, `${prefix}could not reach the proxy ${proxy.display} (${proxy.source}) for CONNECT ${authority}: ${error.message}`, { request, cause: error }));
    };
    const onClose = (): void => fail(new TransportError(ErrorCodes.CONNECTION_RESET, `${prefix}the proxy ${proxy.display} (${proxy.source}) closed the connection before answering CONNECT ${authority}`, { request }));
    const onData = (chunk: Buffer): void => {
      buffered = Buffer.concat([buffered, chunk]);
      const end = buffered.indexOf('\r\n\r\n');
      if (end === -1) {
        if (buffered.length > maxHeaderBytes) fail(new TransportError(ErrorCodes.PROXY_REFUSED, `${prefix}the proxy ${proxy.display} (${proxy.source}) sent an answer to CONNECT ${authority} without an end of headers`, { request, retryable: false }));
        return;
      }
      const statusLine = buffered.subarray(0, buffered.indexOf('\r\n')).toString('latin1');
      const status = Number(/^HTTP\/\d(?:\.\d)? (\d{3})/.exec(statusLine)?.[1] ?? 0);
      if (status !== 200) {
        const hint = status === 407 ? (proxy.authorization === undefined ? ' (the proxy wants credentials: http://user:password@host:port)' : ' (the proxy refused the credentials)') : '';
        fail(new TransportError(ErrorCodes.PROXY_REFUSED, `${prefix}${via.replace('through ', '')} refused CONNECT ${authority}: ${statusLine.slice(0, 200)}${hint}`, { request, retryable: status >= 500 }));
        return;
      }
      settled = true;
      cleanup();
      const rest = buffered.subarray(end + 4);
      if (rest.length > 0) socket.unshift(rest);
      resolve(socket);
    };
    socket.on('data', onData);
    socket.on('error', onError);
    socket.on('close', onClose);
    socket.once(proxy.protocol === 'https:' ? 'secureConnect' : 'connect', () => {
      socket.setNoDelay(true); // as undici's own connector does: small requests and frames go out at once
      const lines = [`CONNECT ${authority} HTTP/1.1`, `Host: ${authority}`];
      if (proxy.authorization !== undefined) lines.push(`Proxy-Authorization: ${proxy.authorization}`);
      socket.write(`${lines.join('\r\n')}\r\n\r\n`);
    });
  });
}

/**
 * Starts TLS to the participant inside an open tunnel: `tls` (the client's CA and client certificate),
 * the server name for SNI and certificate checks (none for an IP address, as Node does), `alpn` if given.
 * Resolves once the handshake is done; rejects with the TLS error (mapped by the caller).
 */
export function secureTunnel(socket: Socket, host: string, tls: ConnectionOptions, alpn?: string[]): Promise<TLSSocket> {
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  const servername = tls.servername ?? (/^[\d.]+$/.test(bare) || isIPv6(bare) ? undefined : bare);
  return new Promise<TLSSocket>((resolve, reject) => {
    const secured = tlsConnect({ ...tls, socket, ...(servername === undefined ? {} : { servername }), ...(alpn === undefined ? {} : { ALPNProtocols: alpn }) });
    const onError = (error: Error): void => {
      secured.destroy();
      reject(error);
    };
    secured.once('error', onError);
    secured.once('secureConnect', () => {
      secured.off('error', onError);
      resolve(secured);
    });
  });
}
