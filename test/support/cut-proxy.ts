import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/** A running {@link startCutProxy}. */
export interface CutProxy {
  /** Base URL to give the client (`http://127.0.0.1:PORT`; `ws://` works through it too). */
  readonly url: string;
  /** Connections accepted so far. */
  readonly connections: () => number;
  /** Connections that were cut. */
  readonly cuts: () => number;
  close(): Promise<void>;
}

/** When {@link startCutProxy} cuts. */
export interface CutPlan {
  /** Whether an answer counts, from the first bytes of its request (e.g. `GET /v2/state/active-contracts …`). */
  readonly match: (head: string) => boolean;
  /** The cut happens once the server sent this many bytes to the client over the matching connections in all. */
  readonly afterBytes: number;
  /** Runs (awaited) just before the cut, the server's bytes held back meanwhile: e.g. to move the ledger on. */
  readonly beforeCut?: () => Promise<void>;
}

/**
 * A byte-level TCP proxy for tests of a dropped connection on any protocol (WebSocket included): it forwards
 * both directions untouched, except once: when the answers to matching requests (a WebSocket stream is the
 * answer to its upgrade request) have carried `plan.afterBytes` bytes from the server, the connection carrying
 * that byte is destroyed (no close frame, no FIN: both sockets destroyed) after exactly that many bytes in all.
 */
export async function startCutProxy(target: string, plan: CutPlan): Promise<CutProxy> {
  const { hostname, port } = new URL(target);
  const sockets = new Set<Socket>();
  let accepted = 0;
  let cut = 0;
  let sent = 0;
  const server: Server = createServer((client) => {
    accepted++;
    let counted: boolean | undefined;
    const upstream = connect(Number(port), hostname);
    sockets.add(client).add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('close', () => (sockets.delete(client), upstream.destroy())).on('error', drop);
    upstream.on('close', () => (sockets.delete(upstream), client.destroy())).on('error', drop);
    client.on('data', (chunk: Buffer) => {
      // Each HTTP request on a kept-alive connection decides for the answer that follows it.
      const head = chunk.toString('latin1', 0, 200);
      if (counted === undefined || /^[A-Z]+ \/\S* HTTP\/1\.1\r\n/.test(head)) counted = plan.match(head);
      upstream.write(chunk);
    });
    let cutting = false;
    upstream.on('data', (chunk: Buffer) => {
      if (cutting) return;
      if (counted !== true || cut > 0 || sent + chunk.length < plan.afterBytes) {
        if (counted === true) sent += chunk.length;
        client.write(chunk);
        return;
      }
      cutting = true;
      client.write(chunk.subarray(0, Math.max(0, plan.afterBytes - sent)));
      sent = plan.afterBytes;
      cut++;
      upstream.pause();
      void (plan.beforeCut?.() ?? Promise.resolve()).finally(drop);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}`,
    connections: () => accepted,
    cuts: () => cut,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
