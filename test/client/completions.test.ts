import { lastValueFrom, toArray } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { createLedgerClient, type LedgerClient } from '../../src/client/index.js';
import { completionOf, completionOffset } from '../../src/completions/index.js';
import { InvalidArgumentError, ProtocolError, TransportError } from '../../src/errors/index.js';
import { ALICE, completionCheckpoint, completionElement } from './support/fixtures.js';
import { startLocalWebSocketServer, type LocalWebSocketServer } from './support/local-websocket-server.js';
import { createMockLedger } from './support/mock-ledger.js';

describe('completions()', () => {
  let server: LocalWebSocketServer | undefined;
  let client: LedgerClient | undefined;
  let ledger: ReturnType<typeof createMockLedger> | undefined;
  afterEach(async () => {
    await client?.close();
    await server?.close();
    await ledger?.done();
    server = client = ledger = undefined;
  });

  it('over a WebSocket: GetCompletionsRequest to command-completions, completions and checkpoints as they come; a close is a retryable TransportError', async () => {
    server = await startLocalWebSocketServer();
    client = createLedgerClient({ baseUrl: server.url, participantVersion: '3.6.0' });
    const got = lastValueFrom(client.completions({ parties: [ALICE], beginExclusive: 10 }).pipe(toArray())).catch((e: unknown) => e);
    const peer = await server.next();
    expect(peer.request.url).toBe('/v2/commands/command-completions');
    expect(JSON.parse(await peer.firstFrame)).toEqual({ parties: [ALICE], beginExclusive: 10 });
    const seen: number[] = [];
    const sub = client.completions({ parties: [ALICE], beginExclusive: 10 }).subscribe({ next: (e) => seen.push(completionOffset(e) ?? -1), error: () => undefined });
    const other = await server.next();
    await other.firstFrame;
    for (const element of [completionElement(11), completionCheckpoint(11), completionElement(14, { status: { code: 10, message: 'ABORTED', details: [] } })]) {
      other.socket.send(JSON.stringify(element));
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(seen).toEqual([11, 11, 14]);
    sub.unsubscribe();
    peer.socket.close(1000);
    const error = await got;
    expect(error).toBeInstanceOf(TransportError);
    expect(error).toMatchObject({ retryable: true, closeCode: 1000 });
  });

  it('over the list: the deprecated endpoint with its CompletionStreamRequest, limit and idle timeout; an offset going back is a ProtocolError', async () => {
    ledger = createMockLedger();
    ledger.expect('POST', '/v2/commands/completions', { data: [completionElement(11), completionElement(12, { updateId: null, status: { code: 6, message: 'DUPLICATE_COMMAND(10,abc): a duplicate', details: [] } })] });
    ledger.expect('POST', '/v2/commands/completions', { data: [completionElement(11), completionElement(11)] });
    const request = { userId: 'alice', parties: [ALICE], beginExclusive: 10 };
    const elements = await lastValueFrom(
      ledger.client.completions(request, { endpoint: 'completions', transport: 'list', limit: 5, streamIdleTimeoutMs: 100 }).pipe(toArray()),
    );
    expect(elements.map((e) => completionOf(e)?.status?.code ?? 0)).toEqual([0, 6]);
    expect(ledger.requests[0]?.path).toBe('/v2/commands/completions?limit=5&stream_idle_timeout_ms=100');
    expect(ledger.requests[0]?.body).toEqual(request);
    const error = await lastValueFrom(ledger.client.completions(request, { endpoint: 'completions', transport: 'list' })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error).toMatchObject({ code: 'OFFSET_NOT_INCREASING', offset: 11, elementIndex: 1 });
  });

  it('rejects invalid requests and options before sending', async () => {
    ledger = createMockLedger();
    const bad = [
      () => ledger?.client.completions({ parties: [] }, { endpoint: 'completions' }),
      () => ledger?.client.completions({ parties: ['not a party!'] }),
      () => ledger?.client.completions({ parties: [ALICE], beginExclusive: -1 }),
      () => ledger?.client.completions({ userId: 'a b', parties: [ALICE] }, { endpoint: 'completions' }),
      () => ledger?.client.completions({ parties: [ALICE] }, { transport: 'page' as 'list' }),
      () => ledger?.client.completions({ parties: [ALICE] }, { endpoint: 'other' as 'completions' }),
      () => ledger?.client.completions({ parties: [ALICE] }, { limit: -1 }),
    ];
    for (const call of bad) expect(call).toThrow(InvalidArgumentError);
    expect(ledger.dispatched()).toBe(0);
  });
});
