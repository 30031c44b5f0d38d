import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import type { Readiness } from './readiness-tracker.js';

/** Options of {@link startMetricsServer}. */
export interface MetricsServerOptions {
  /** The registry served on `/metrics`. */
  readonly registry: Registry;
  /** Answers `/readyz`; without it `/readyz` answers like `/healthz`. */
  readonly readiness?: () => Readiness;
  /** Interface to listen on. Default `127.0.0.1` (loopback only). */
  readonly host?: string;
  /** Port; `0` picks a free one. Default 0. */
  readonly port?: number;
}

/** A running {@link startMetricsServer}. */
export interface MetricsServer {
  /** `http://host:port`, with the actual port. */
  readonly url: string;
  readonly port: number;
  /** Stops listening and closes open connections. Idempotent. */
  close(): Promise<void>;
}

function send(res: ServerResponse, status: number, contentType: string, body: string, head: boolean): void {
  res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(body), 'cache-control': 'no-store' });
  res.end(head ? undefined : body);
}

/**
 * Starts the operations endpoint of a daemon (`node:http`):
 *
 * - `GET /metrics`: the registry in the Prometheus text format (or OpenMetrics, as the registry is set up);
 * - `GET /healthz`: `200 ok` while the process serves requests (liveness);
 * - `GET /readyz`: `200` when `readiness()` says ready, else `503`; the body is the readiness as JSON
 *   (`{"ready":false,"reason":"stalled",...}`).
 *
 * `HEAD` works like `GET` without a body; other methods get `405`, other paths `404`; a registry that
 * fails to collect gives `500`. Resolves once listening; rejects when the port cannot be bound (in use,
 * no permission). Keeps no timers and does not hold the process open on its own beyond the listening socket.
 */
export async function startMetricsServer(options: MetricsServerOptions): Promise<MetricsServer> {
  const { registry, readiness } = options;
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?', 1)[0];
    const head = req.method === 'HEAD';
    if (path !== '/metrics' && path !== '/healthz' && path !== '/readyz') return send(res, 404, 'text/plain; charset=utf-8', 'not found: try /metrics, /healthz, /readyz\n', head);
    if (req.method !== 'GET' && !head) {
      res.setHeader('allow', 'GET, HEAD');
      return send(res, 405, 'text/plain; charset=utf-8', 'method not allowed\n', false);
    }
    if (path === '/metrics') {
      let text: string;
      try {
        text = await registry.metrics();
      } catch (error) {
        return send(res, 500, 'text/plain; charset=utf-8', `cannot collect metrics: ${error instanceof Error ? error.message : String(error)}\n`, head);
      }
      return send(res, 200, registry.contentType, text, head);
    }
    if (path === '/healthz' || !readiness) return send(res, 200, 'text/plain; charset=utf-8', 'ok\n', head);
    const state = readiness();
    return send(res, state.ready ? 200 : 503, 'application/json', `${JSON.stringify(state)}\n`, head);
  };
  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) send(res, 500, 'text/plain; charset=utf-8', `${error instanceof Error ? error.message : String(error)}\n`, false);
      else res.destroy();
    });
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      })),
  };
}
