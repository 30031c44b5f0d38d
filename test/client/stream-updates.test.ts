import { execFileSync } from 'node:child_process';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import { BehaviorSubject, firstValueFrom, lastValueFrom, take, toArray } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { createLedgerClient, type LedgerClient, type LedgerClientOptions } from '../../src/client/index.js';
import { AbortError, InvalidArgumentError, LedgerApiError, PrunedOffsetError, ProtocolError, TransportError } from '../../src/errors/index.js';
import type { JsGetUpdatesResponse } from '../../src/schemas/index.js';
import { elementBytes, elementText, updateOffset } from '../../src/updates/index.js';
import { checkpointElement, transactionElement, updatesRequest } from './support/fixtures.js';
import { startLocalWebSocketServer, type LocalWebSocketServer, type LocalWebSocketServerOptions } from './support/local-websocket-server.js';
import { cantonError } from './support/mock-ledger.js';
import { repoRoot } from '../support/shared-dir.js';

const jwt = (exp: number) => `${Buffer.from('{"alg":"HS256"}').toString('base64url')}.${Buffer.from(JSON.stringify({ sub: 'alice', exp })).toString('base64url')}.sig`;

describe("updates(request, { transport: 'websocket' }) over a WebSocket", () => {
  let server: LocalWebSocketServer;
  let client: LedgerClient;
  const start = async (options: Partial<LedgerClientOptions> = {}, serverOptions: LocalWebSocketServerOptions = {}) => {
    server = await startLocalWebSocketServer(serverOptions);
    client = createLedgerClient({ baseUrl: `${server.url}/prefix`, ...options });
  };
  afterEach(async () => {
    await client.close();
    await server.close();
  });

  it('sends the token in the subprotocols and the request as one frame, and emits one element per frame', async () => {
    let calls = 0;
    await start({ token: () => `token-${++calls}`, headers: { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' } });
    const got = lastValueFrom(client.updates(updatesRequest({ endInclusive: 15 }), { transport: 'websocket', rawText: true }).pipe(toArray()));
    const peer = await server.next();
    expect(peer.request.url).toBe('/prefix/v2/updates');
    expect(peer.request.headers['sec-websocket-protocol']).toBe('jwt.token.token-1,daml.ws.auth');
    expect(peer.request.headers['traceparent']).toBeDefined();
    expect(peer.request.headers['authorization']).toBeUndefined();
    expect(JSON.parse(await peer.firstFrame)).toEqual(updatesRequest({ endInclusive: 15 }));
    const texts = [JSON.stringify(transactionElement(11)), JSON.stringify(transactionElement(15))];
    for (const text of texts) peer.socket.send(text);
    peer.socket.close(1000);
    const elements = await got;
    expect(elements.map(updateOffset)).toEqual([11, 15]);
    expect(elements.map((e) => elementText(e))).toEqual(texts);
    expect(elements.map((e) => Buffer.from(elementBytes(e) ?? []).toString('utf8'))).toEqual(texts); // each frame's own bytes
    // a second subscription is a new connection, with the token asked for again
    const again = firstValueFrom(client.updates(updatesRequest(), { transport: 'websocket' }));
    const second = await server.next();
    expect(second.request.headers['sec-websocket-protocol']).toBe('jwt.token.token-2,daml.ws.auth');
    second.socket.send(JSON.stringify(checkpointElement(10)));
    expect(updateOffset(await again)).toBe(10);
    expect(await second.closed).toBe(1000); // unsubscribing (take 1) closes the socket normally
  });

  it('reports the connection with the expiry of its JWT', async () => {
    const exp = 2_000_000_000;
    await start({ token: jwt(exp) });
    const opened: unknown[] = [];
    const subscription = client.updates(updatesRequest(), { transport: 'websocket', onOpen: (c) => opened.push(c) }).subscribe({ error: () => undefined });
    const peer = await server.next();
    await peer.firstFrame;
    expect(opened).toEqual([{ tokenExpiresAt: exp * 1000 }]);
    subscription.unsubscribe();
    expect(await peer.closed).toBe(1000);
  });

  it('errors with a retryable TransportError when an open-ended stream closes without an error frame, whatever the code', async () => {
    await start();
    for (const code of [1000, 1011]) {
      const result = lastValueFrom(client.updates(updatesRequest(), { transport: 'websocket' }).pipe(toArray())).catch((e: unknown) => e);
      const peer = await server.next();
      await peer.firstFrame;
      peer.socket.send(JSON.stringify(transactionElement(11)));
      peer.socket.close(code, 'going');
      const error = await result;
      expect(error).toBeInstanceOf(TransportError);
      expect(error).toMatchObject({ code: 'CONNECTION_RESET', closeCode: code, retryable: true });
    }
    const cut = lastValueFrom(client.updates(updatesRequest({ endInclusive: 20 }), { transport: 'websocket' })).catch((e: unknown) => e);
    const peer = await server.next();
    await peer.firstFrame;
    peer.socket.terminate();
    expect(await cut).toMatchObject({ code: 'CONNECTION_RESET', closeCode: 1006 });
  });

  it('turns an error frame into the typed LedgerApiError with all ten fields', async () => {
    await start();
    const body = cantonError({ code: 'PARTICIPANT_PRUNED_DATA_ACCESSED', cause: 'Updates request from 11 to 20 precedes pruned offset 30', errorCategory: 9, grpcCodeValue: 9, context: { earliest_offset: '30' }, resources: [] });
    const result = lastValueFrom(client.updates(updatesRequest(), { transport: 'websocket' }).pipe(toArray())).catch((e: unknown) => e);
    const peer = await server.next();
    await peer.firstFrame;
    peer.socket.send(JSON.stringify(body));
    const error = await result;
    expect(error).toBeInstanceOf(PrunedOffsetError);
    expect((error as LedgerApiError).body).toEqual(body);
    expect(error).toMatchObject({ status: 400, earliestOffset: 30, retryable: false });
    expect(await peer.closed).toBe(1000);
  });

  it('refreshes the token once after a 401 error frame that came before any element', async () => {
    let calls = 0;
    await start({ token: () => `t${++calls}` });
    const got = firstValueFrom(client.updates(updatesRequest(), { transport: 'websocket' }));
    const first = await server.next();
    await first.firstFrame;
    first.socket.send(JSON.stringify(cantonError({ code: 'NA', cause: 'A security-sensitive error has been received', errorCategory: -1, grpcCodeValue: 16, context: {}, resources: [] })));
    const second = await server.next();
    expect(second.request.headers['sec-websocket-protocol']).toBe('jwt.token.t2,daml.ws.auth');
    await second.firstFrame;
    second.socket.send(JSON.stringify(transactionElement(11)));
    expect(updateOffset(await got)).toBe(11);
  });

  it('rejects a refused upgrade with the answer as a LedgerApiError (status kept, body mapped)', async () => {
    await start({}, { refuse: () => ({ status: 404, body: '{"errors":["GET, uri: /v2/updates"],"status":404}', contentType: 'application/json' }) });
    const error = await lastValueFrom(client.updates(updatesRequest(), { transport: 'websocket' })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LedgerApiError);
    expect(error).toMatchObject({ status: 404, code: 'HTTP_404', request: 'GET /v2/updates (WebSocket)' });
  });

  it('fails with HANDSHAKE_TIMEOUT when the upgrade gets no answer within webSocketHandshakeTimeoutMs (a proxy that swallows it)', async () => {
    await start();
    // a listener that accepts the connection and reads the upgrade, but never answers it
    const held: Socket[] = [];
    const silent = createNetServer((socket) => {
      held.push(socket);
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as AddressInfo).port;
    const swallowed = createLedgerClient({ baseUrl: `http://127.0.0.1:${port}`, webSocketHandshakeTimeoutMs: 100 });
    try {
      const error = await lastValueFrom(swallowed.updates(updatesRequest(), { transport: 'websocket' })).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TransportError);
      expect(error).toMatchObject({
        code: 'HANDSHAKE_TIMEOUT',
        retryable: true,
        request: 'GET /v2/updates (WebSocket)',
        message: 'GET /v2/updates (WebSocket): WebSocket handshake got no answer within 100 ms',
      });
      expect(held.length).toBe(1); // the connection was made: it is the answer that never came
    } finally {
      await swallowed.close();
      for (const socket of held) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it('checks elements like updates(): order, range and schema', async () => {
    await start();
    const result = lastValueFrom(client.updates(updatesRequest(), { transport: 'websocket' }).pipe(toArray())).catch((e: unknown) => e);
    const peer = await server.next();
    await peer.firstFrame;
    peer.socket.send(JSON.stringify(transactionElement(12)));
    peer.socket.send(JSON.stringify(transactionElement(12)));
    expect(await result).toMatchObject({ code: 'OFFSET_NOT_INCREASING', elementIndex: 1, offset: 12 });
    const malformed = lastValueFrom(client.updates(updatesRequest(), { transport: 'websocket' })).catch((e: unknown) => e);
    const other = await server.next();
    await other.firstFrame;
    other.socket.send('{"update":');
    const error = await malformed;
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error).toMatchObject({ code: 'MALFORMED_JSON' });
  });

  it('closes a socket that stays silent (no pong) and errors with REQUEST_TIMEOUT', async () => {
    await start({}, { autoPong: false });
    const result = lastValueFrom(client.updates(updatesRequest(), { transport: 'websocket', pingIntervalMs: 20, silenceTimeoutMs: 100 })).catch((e: unknown) => e);
    const peer = await server.next();
    await peer.firstFrame;
    expect(await result).toMatchObject({ code: 'REQUEST_TIMEOUT', retryable: true });
    expect(await peer.closed).toBe(1006);
  });

  it('stops reading the socket while paused, so the server cannot send on, and reads again on resume', async () => {
    await start();
    const paused = new BehaviorSubject(false);
    const received: JsGetUpdatesResponse[] = [];
    const subscription = client.updates(updatesRequest(), { transport: 'websocket', paused, validate: false }).subscribe((e) => received.push(e));
    const peer = await server.next();
    await peer.firstFrame;
    paused.next(true);
    const big = JSON.stringify({ update: { Transaction: { value: { offset: 0, pad: 'x'.repeat(64 * 1024) } } } });
    let offset = 10;
    // keep sending until the kernel buffers are full and ws starts buffering on the server
    while (peer.socket.bufferedAmount < 4 * 1024 * 1024 && offset < 10_000) {
      peer.socket.send(big.replace('"offset":0', `"offset":${++offset}`));
      await new Promise((r) => setImmediate(r));
    }
    const whilePaused = received.length;
    expect(peer.socket.bufferedAmount).toBeGreaterThanOrEqual(4 * 1024 * 1024);
    expect(whilePaused).toBeLessThan(offset - 10);
    paused.next(false);
    await new Promise<void>((resolve) => {
      const check = () => (received.length === offset - 10 ? resolve() : setTimeout(check, 5));
      check();
    });
    expect(received.map(updateOffset)).toEqual(Array.from({ length: offset - 10 }, (_, i) => 11 + i));
    subscription.unsubscribe();
  });

  it('iterateUpdates over a WebSocket yields every frame, and leaving the loop closes the socket', async () => {
    await start();
    const iterator = client.iterateUpdates(updatesRequest(), { transport: 'websocket' })[Symbol.asyncIterator]();
    const first = iterator.next();
    const peer = await server.next();
    expect(JSON.parse(await peer.firstFrame)).toEqual(updatesRequest());
    for (const offset of [11, 12, 13]) peer.socket.send(JSON.stringify(transactionElement(offset)));
    expect(updateOffset((await first).value as JsGetUpdatesResponse)).toBe(11);
    expect(updateOffset((await iterator.next()).value as JsGetUpdatesResponse)).toBe(12);
    await iterator.return?.();
    expect(await peer.closed).toBe(1000);
  });

  it('the deprecated streamUpdates(request, options) is the same WebSocket read, and ignores the options of other transports as before', async () => {
    await start();
    // the deprecated alias under test
    const got = lastValueFrom(client.streamUpdates(updatesRequest({ endInclusive: 15 }), { rawText: true, limit: 1 }).pipe(toArray()));
    const peer = await server.next();
    expect(peer.request.url).toBe('/prefix/v2/updates');
    expect(JSON.parse(await peer.firstFrame)).toEqual(updatesRequest({ endInclusive: 15 }));
    const texts = [JSON.stringify(transactionElement(11)), JSON.stringify(transactionElement(15))];
    for (const text of texts) peer.socket.send(text);
    peer.socket.close(1000);
    const elements = await got;
    expect(elements.map(updateOffset)).toEqual([11, 15]);
    expect(elements.map((e) => elementText(e))).toEqual(texts);
    expect(() => client.updates(updatesRequest(), { transport: 'websocket', limit: 1 })).toThrow(InvalidArgumentError);
  });

  it('validates arguments synchronously and ends with AbortError when the signal fires or the client closes', async () => {
    await start();
    expect(() => client.updates(updatesRequest({ beginExclusive: -1 }), { transport: 'websocket' })).toThrow(InvalidArgumentError);
    expect(() => client.updates(updatesRequest(), { transport: 'websocket', paused: true } as never)).toThrow(InvalidArgumentError);
    expect(() => client.updates(updatesRequest(), { transport: 'websocket', pingIntervalMs: -1 })).toThrow(InvalidArgumentError);
    const controller = new AbortController();
    const aborted = lastValueFrom(client.updates(updatesRequest(), { transport: 'websocket', signal: controller.signal })).catch((e: unknown) => e);
    const peer = await server.next();
    await peer.firstFrame;
    controller.abort();
    expect(await aborted).toBeInstanceOf(AbortError);
    expect(await peer.closed).toBe(1000);
    const closing = lastValueFrom(client.updates(updatesRequest(), { transport: 'websocket' }).pipe(take(1))).catch((e: unknown) => e);
    await (await server.next()).firstFrame;
    await client.close();
    expect(await closing).toBeInstanceOf(AbortError);
    expect(server.accepted).toHaveLength(2);
  });
});

describe('the ws package', () => {
  it('is not loaded by importing ledger-rx, only by the first WebSocket connection', () => {
    const script = `
      await import(${JSON.stringify(join(repoRoot, 'dist', 'index.js'))});
      const { createRequire } = await import('node:module');
      process.stdout.write(JSON.stringify(Object.keys(createRequire(import.meta.url).cache)));
    `;
    const loaded = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: repoRoot, encoding: 'utf8' })) as string[];
    expect(loaded.some((p) => p.includes('/node_modules/rxjs/'))).toBe(true); // the check sees CommonJS modules (rxjs: undici is now loaded by createLedgerClient)
    expect(loaded.filter((p) => p.includes('/node_modules/ws/'))).toEqual([]);
  });
});
