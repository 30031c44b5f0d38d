import { createServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { connect, type AddressInfo } from 'node:net';

/** One request seen by a {@link HeaderRecorder}. */
export interface RecordedRequest {
  readonly method: string;
  /** Path and query. */
  readonly url: string;
  /** Whether it asked for a WebSocket upgrade. */
  readonly upgrade: boolean;
  readonly headers: IncomingHttpHeaders;
}

/** A transparent forwarder that records the headers of every request it passes on. */
export interface HeaderRecorder {
  readonly url: string;
  readonly requests: RecordedRequest[];
  close(): Promise<void>;
}

/**
 * Starts a `node:http` server on 127.0.0.1 that forwards every request to `target` unchanged (HTTP answers
 * streamed back; a WebSocket upgrade spliced through as raw bytes) and records what arrived: the headers a
 * server received, whichever transport sent them.
 */
export async function startHeaderRecorder(target: string): Promise<HeaderRecorder> {
  const to = new URL(target);
  const port = Number(to.port);
  const requests: RecordedRequest[] = [];
  const spliced = new Set<{ destroy(): void }>();
  const server = createServer((req, res) => {
    requests.push({ method: req.method ?? '', url: req.url ?? '', upgrade: false, headers: req.headers });
    const upstream = httpRequest({ host: to.hostname, port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.on('upgrade', (req, socket, head) => {
    requests.push({ method: req.method ?? '', url: req.url ?? '', upgrade: true, headers: req.headers });
    const upstream = connect(port, to.hostname, () => {
      spliced.add(upstream).add(socket);
      const lines = [`${req.method} ${req.url} HTTP/1.1`];
      for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
      upstream.write(head);
      socket.pipe(upstream).pipe(socket);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        for (const s of spliced) s.destroy();
        server.close(() => resolve());
      }),
  };
}
