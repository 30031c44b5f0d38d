import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

/** One connection the server accepted: the socket, the upgrade request, and the frames it received. */
export interface AcceptedSocket {
  readonly socket: WebSocket;
  readonly request: IncomingMessage;
  /** Text of the first frame the client sent (the request), once it arrived. */
  readonly firstFrame: Promise<string>;
  /** The close code the client sent, once the socket closed. */
  readonly closed: Promise<number>;
}

/** A throwaway WebSocket server on 127.0.0.1 that speaks the participant's subprotocol, for client tests. */
export interface LocalWebSocketServer {
  readonly url: string;
  readonly accepted: AcceptedSocket[];
  /** Resolves with the next connection accepted. */
  next(): Promise<AcceptedSocket>;
  close(): Promise<void>;
}

export interface LocalWebSocketServerOptions {
  /** Answer the upgrade with this HTTP status and body instead of accepting it. */
  readonly refuse?: (request: IncomingMessage) => { status: number; body: string; contentType?: string } | undefined;
  /** Reply to pings (default true). */
  readonly autoPong?: boolean;
}

/**
 * Starts a `ws` server (noServer, on a node:http server) that answers the subprotocol `daml.ws.auth` like
 * the participant, records every connection and hands it to the test through `next()`.
 */
export async function startLocalWebSocketServer(options: LocalWebSocketServerOptions = {}): Promise<LocalWebSocketServer> {
  const wss = new WebSocketServer({ noServer: true, autoPong: options.autoPong ?? true, handleProtocols: () => 'daml.ws.auth' });
  const accepted: AcceptedSocket[] = [];
  const waiting: ((s: AcceptedSocket) => void)[] = [];
  const server = createServer((_req, res) => res.writeHead(404).end());
  server.on('upgrade', (request, socket, head) => {
    const refusal = options.refuse?.(request);
    if (refusal) {
      socket.end(`HTTP/1.1 ${refusal.status} Refused\r\ncontent-type: ${refusal.contentType ?? 'text/plain'}\r\ncontent-length: ${Buffer.byteLength(refusal.body)}\r\nconnection: close\r\n\r\n${refusal.body}`);
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => {
      const firstFrame = new Promise<string>((resolve) => ws.once('message', (data) => resolve(String(data))));
      const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
      const entry = { socket: ws, request, firstFrame, closed };
      accepted.push(entry);
      const waiter = waiting.shift();
      if (waiter) waiter(entry);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  let handed = 0;
  return {
    url: `http://127.0.0.1:${port}`,
    accepted,
    next: () => {
      const index = handed++;
      const ready = accepted[index];
      return ready ? Promise.resolve(ready) : new Promise((resolve) => waiting.push(resolve));
    },
    close: async () => {
      for (const client of wss.clients) client.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
