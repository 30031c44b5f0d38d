import { afterEach, describe, expect, it } from 'vitest';
import { createLedgerClient } from '../../src/client/index.js';
import { AbortError, LedgerApiError, PrunedOffsetError, TransportError } from '../../src/errors/index.js';
import { updatesRequest } from './support/fixtures.js';
import { closedPort, startLocalServer } from './support/local-server.js';
import { cantonError, createMockLedger } from './support/mock-ledger.js';

async function failure<T>(promise: Promise<T>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}

describe('HTTP error mapping', () => {
  let ledger: ReturnType<typeof createMockLedger>;
  afterEach(async () => {
    await ledger.done();
  });

  it('a Canton JSON body becomes a LedgerApiError with all ten fields and the status', async () => {
    ledger = createMockLedger();
    const body = cantonError();
    ledger.expect('PATCH', '/v2/users/bob', { status: 404, data: body });
    const error = await failure(ledger.client.updateUser('bob', { user: { id: 'bob' }, updateMask: { paths: ['primary_party'] } }));
    expect(error).toBeInstanceOf(LedgerApiError);
    const e = error as LedgerApiError;
    expect(e.status).toBe(404);
    expect(e.code).toBe('USER_NOT_FOUND');
    expect(e.body).toEqual(body);
    expect({
      code: e.code, cause: e.cantonCause, correlationId: e.correlationId, traceId: e.traceId, context: e.context,
      resources: e.resources, errorCategory: e.errorCategory, grpcCodeValue: e.grpcCodeValue, retryInfo: e.retryInfo, definiteAnswer: e.definiteAnswer,
    }).toEqual(body);
    expect(e.request).toBe('PATCH /v2/users/bob');
    expect(e.retryable).toBe(false);
  });

  it('PARTICIPANT_PRUNED_DATA_ACCESSED becomes a PrunedOffsetError with earliestOffset', async () => {
    ledger = createMockLedger();
    const body = cantonError({
      code: 'PARTICIPANT_PRUNED_DATA_ACCESSED', cause: 'Updates request from 3 to 9 precedes pruned offset 17',
      context: { earliest_offset: '17', category: '9' }, errorCategory: 9, grpcCodeValue: 9, resources: [],
    });
    ledger.expect('POST', '/v2/updates', { status: 400, data: body });
    const error = await failure(ledger.client.updates(updatesRequest({ beginExclusive: 2 })).forEach(() => undefined));
    expect(error).toBeInstanceOf(PrunedOffsetError);
    expect((error as PrunedOffsetError).earliestOffset).toBe(17);
    expect((error as PrunedOffsetError).status).toBe(400);
  });

  it.each([
    [401, 16],
    [403, 7],
  ])('a redacted %i NA body is a non-retryable LedgerApiError', async (status, grpc) => {
    ledger = createMockLedger();
    const body = cantonError({ code: 'NA', cause: 'A security-sensitive error has been received', context: {}, resources: [], errorCategory: -1, grpcCodeValue: grpc });
    ledger.expect('GET', '/v2/state/ledger-end', { status, data: body });
    const e = (await failure(ledger.client.ledgerEnd())) as LedgerApiError;
    expect([e.status, e.code, e.grpcCodeValue, e.errorCategory, e.retryable]).toEqual([status, 'NA', grpc, -1, false]);
  });

  it('a 400 text/plain decode failure keeps the text, code HTTP_400', async () => {
    ledger = createMockLedger();
    const text = "Invalid value for: body (Missing required field at 'commandId')";
    ledger.expect('POST', '/v2/commands/async/submit', { status: 400, data: text });
    const body = { commands: [{ CreateCommand: { templateId: '#m:M:T', createArguments: {} } }], commandId: 'c', actAs: ['A::1'] };
    const e = (await failure(ledger.client.submit(body))) as LedgerApiError;
    expect([e.status, e.code, e.text, e.body, e.retryable]).toEqual([400, 'HTTP_400', text, undefined, false]);
    expect(e.message).toContain('commandId');
  });

  it('a 503 text/plain request timeout is retryable', async () => {
    ledger = createMockLedger();
    ledger.expect('GET', '/v2/state/ledger-end', { status: 503, data: 'The server was not able to produce a timely response to your request.' });
    const e = (await failure(ledger.client.ledgerEnd())) as LedgerApiError;
    expect([e.status, e.code, e.retryable]).toEqual([503, 'HTTP_503', true]);
  });

  it.each([
    [429, 'RESOURCE_EXHAUSTED_X', 8, 2],
    [504, 'REQUEST_TIME_OUT', 4, 3],
  ])('%i with retryInfo is retryable with retryAfterMs', async (status, code, grpc, category) => {
    ledger = createMockLedger();
    ledger.expect('GET', '/v2/state/ledger-end', {
      status,
      data: cantonError({ code, errorCategory: category, grpcCodeValue: grpc, retryInfo: '1 second', context: {}, resources: [] }),
    });
    const e = (await failure(ledger.client.ledgerEnd())) as LedgerApiError;
    expect([e.status, e.code, e.retryable, e.retryAfterMs]).toEqual([status, code, true, 1000]);
  });

  it('the legacy 404 body of an unknown route is kept as text', async () => {
    ledger = createMockLedger();
    const legacy = { errors: ['GET, uri: /v2/version'], status: 404 };
    ledger.expect('GET', '/v2/version', { status: 404, data: legacy });
    const e = (await failure(ledger.client.version())) as LedgerApiError;
    expect([e.code, e.text]).toEqual(['HTTP_404', JSON.stringify(legacy)]);
  });

  it('an already-aborted signal rejects with AbortError and sends nothing', async () => {
    ledger = createMockLedger();
    const controller = new AbortController();
    controller.abort();
    await expect(ledger.client.ledgerEnd({ signal: controller.signal })).rejects.toBeInstanceOf(AbortError);
    expect(ledger.dispatched()).toBe(0);
  });
});

describe('transport failures (real sockets)', () => {
  it('connection refused → TransportError CONNECTION_FAILED (with the private default Agent)', async () => {
    const client = createLedgerClient({ baseUrl: `http://127.0.0.1:${await closedPort()}`, token: 'secret-abc' });
    const e = (await failure(client.version())) as TransportError;
    expect(e).toBeInstanceOf(TransportError);
    expect([e.code, e.retryable, e.request]).toEqual(['CONNECTION_FAILED', true, 'GET /v2/version']);
    expect(e.cause).toBeDefined();
    expect(e.message).not.toContain('secret-abc');
    await client.close();
  });

  it('a connection reset before the answer → CONNECTION_RESET', async () => {
    const server = await startLocalServer((req) => req.socket.destroy());
    const client = createLedgerClient({ baseUrl: server.url });
    const e = (await failure(client.ledgerEnd())) as TransportError;
    expect([e.name, e.code]).toEqual(['TransportError', 'CONNECTION_RESET']);
    await client.close();
    await server.close();
  });

  it('no answer within timeoutMs → REQUEST_TIMEOUT, and the request is abandoned', async () => {
    const server = await startLocalServer(() => undefined);
    const client = createLedgerClient({ baseUrl: server.url, timeoutMs: 150 });
    const started = Date.now();
    const e = (await failure(client.ledgerEnd())) as TransportError;
    expect([e.name, e.code]).toEqual(['TransportError', 'REQUEST_TIMEOUT']);
    expect(Date.now() - started).toBeLessThan(5000);
    await client.close();
    await server.close();
  });

  it('the deadline covers a body that stalls after the headers', async () => {
    const server = await startLocalServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"offset": ');
    });
    const client = createLedgerClient({ baseUrl: server.url, timeoutMs: 150 });
    expect(await failure(client.ledgerEnd())).toMatchObject({ code: 'REQUEST_TIMEOUT' });
    await client.close();
    await server.close();
  });

  it('the deadline is overall: a body trickling faster than any per-chunk timeout still times out', async () => {
    const server = await startLocalServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"offset": 1');
      const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write(' ')), 40);
    });
    const client = createLedgerClient({ baseUrl: server.url, timeoutMs: 300 });
    const started = Date.now();
    expect(await failure(client.ledgerEnd())).toMatchObject({ name: 'TransportError', code: 'REQUEST_TIMEOUT' });
    expect(Date.now() - started).toBeLessThan(3000);
    await client.close();
    await server.close();
  });

  it('aborting the signal mid-request → AbortError and the connection is closed', async () => {
    const server = await startLocalServer(() => undefined);
    const client = createLedgerClient({ baseUrl: server.url });
    const controller = new AbortController();
    const pending = failure(client.ledgerEnd({ signal: controller.signal }));
    await new Promise((r) => setTimeout(r, 50));
    controller.abort();
    expect(await pending).toBeInstanceOf(AbortError);
    await new Promise((r) => setTimeout(r, 50));
    expect(server.abortedRequests()).toBe(1);
    await client.close();
    await server.close();
  });

  it('close() aborts in-flight calls and later calls reject with AbortError', async () => {
    const server = await startLocalServer(() => undefined);
    const client = createLedgerClient({ baseUrl: server.url });
    const pending = failure(client.ledgerEnd());
    await new Promise((r) => setTimeout(r, 50));
    await client.close();
    expect(await pending).toBeInstanceOf(AbortError);
    expect(await failure(client.version())).toBeInstanceOf(AbortError);
    await server.close();
  });
});
