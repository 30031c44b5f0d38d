import type { Socket } from 'node:net';
import type { ConnectionOptions } from 'node:tls';
import type { buildConnector } from 'undici';
import { openProxyTunnel, secureTunnel } from './open-proxy-tunnel.js';
import type { ResolvedProxy } from './resolve-proxy.js';

/**
 * The `connect` function of the client's undici `Agent` when a proxy is on the path
 * (docs/network-paths.md): every connection to the participant is an HTTP `CONNECT` tunnel through
 * `proxy` (`openProxyTunnel`, also used by the WebSocket transport, so both transports take the same path
 * and fail the same way), with TLS to the participant inside it for an `https:` base URL (`tls`: the
 * client's CA and client certificate). A refused tunnel reaches the request as `TransportError`
 * `PROXY_REFUSED`; a TLS failure inside the tunnel as the TLS error, mapped like a direct one.
 */
export function createTunnelConnector(proxy: ResolvedProxy, tls: ConnectionOptions | undefined, timeoutMs: number): buildConnector.connector {
  return (options, callback) => {
    const port = Number(options.port) || (options.protocol === 'https:' ? 443 : 80);
    openProxyTunnel(proxy, { host: options.hostname, port, timeoutMs })
      
      .then<Socket>((socket) => (options.protocol === 'https:' ? secureTunnel(socket, options.hostname, { ...tls, ...(options.servername ? { servername: options.servername } : {}) }, ['http/1.1']) : socket))
      .then(
        (socket) => callback(null, socket),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), null),
      );
  };
}
