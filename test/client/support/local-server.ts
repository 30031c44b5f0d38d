import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A throwaway HTTP server on 127.0.0.1 for tests that need real sockets. */
export interface LocalServer {
  readonly url: string;
  /** Requests whose connection closed before the handler ended the response. */
  readonly abortedRequests: () => number;
  close(): Promise<void>;
}

/** Starts a server with `handler`; `close()` destroys all connections. */
export async function startLocalServer(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<LocalServer> {
  let aborted = 0;
  const server: Server = createServer((req, res) => {
    res.on('close', () => {
      if (!res.writableEnded) aborted++;
    });
    handler(req, res);
  });
  server.keepAliveTimeout = 1;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    abortedRequests: () => aborted,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** A port on 127.0.0.1 where nothing listens. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
