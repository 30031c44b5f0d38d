import { Agent, type AgentOptions } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Socket } from 'node:net';
import type { ConnectionOptions } from 'node:tls';
import { openProxyTunnel, secureTunnel } from '../http/open-proxy-tunnel.js';
import type { ResolvedProxy } from '../http/resolve-proxy.js';

/** What `http.Agent#createConnection` is called with for one `ws` upgrade request (the request's options). */
interface ConnectionRequest extends Omit<ConnectionOptions, 'host' | 'port' | 'path'> {
  readonly host?: string | null;
  readonly hostname?: string | null;
  readonly port?: number | string | null;
  readonly path?: string | null;
}

/**
 * An `http.Agent` for `ws`'s `agent` option that opens every WebSocket connection as an HTTP `CONNECT`
 * tunnel through `proxy` (docs/network-paths.md): `ws://` speaks the upgrade straight through the tunnel,
 * `wss://` starts TLS to the participant inside it with the request's TLS options (the client's CA and
 * client certificate, which the transport passes to `ws`). `secure` must match the URL's scheme (`https.request`
 * checks the agent's protocol). A refused tunnel fails the upgrade request with `TransportError`
 * `PROXY_REFUSED`, which `ws` reports as the socket's error. `timeoutMs` bounds the proxy's answer
 * (`ws`'s handshake timeout only starts once the request has a socket).
 */
export function createTunnelAgent(proxy: ResolvedProxy, secure: boolean, timeoutMs: number, request: string): Agent {
  const agent = new Agent({ keepAlive: false } satisfies AgentOptions);
  // `https.request` refuses an agent whose protocol is not `https:`
  (agent as { protocol?: string }).protocol = secure ? 'https:' : 'http:';
  (agent as unknown as { defaultPort: number }).defaultPort = secure ? 443 : 80;
  (agent as unknown as { createConnection: (options: ConnectionRequest, callback: (error: Error | null, socket?: Duplex) => void) => undefined }).createConnection = (options, callback) => {
    const host = options.hostname ?? options.host ?? 'localhost';
    const port = Number(options.port) || (secure ? 443 : 80);
    openProxyTunnel(proxy, { host, port, timeoutMs, request })
      .then<Socket>((socket) => {
        if (!secure) return socket;
        const { ca, cert, key, servername, rejectUnauthorized, checkServerIdentity } = options;
        return secureTunnel(socket, host, {
          ...(ca === undefined ? {} : { ca }),
          ...(cert === undefined ? {} : { cert }),
          ...(key === undefined ? {} : { key }),
          ...(servername ? { servername } : {}),
          ...(rejectUnauthorized === undefined ? {} : { rejectUnauthorized }),
          ...(checkServerIdentity === undefined ? {} : { checkServerIdentity }),
        });
      })
      .then(
        (socket) => callback(null, socket),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    return undefined;
  };
  return agent;
}
