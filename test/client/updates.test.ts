import { lastValueFrom, toArray } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { createLedgerClient } from '../../src/client/index.js';
import { AbortError, LedgerApiError, ProtocolError, TransportError } from '../../src/errors/index.js';
import { fromLegacyFilter } from '../../src/filters/from-legacy-filter.js';
import type { GetUpdatesRequest, JsGetUpdatesResponse } from '../../src/schemas/index.js';
import { ALICE, checkpointElement, transactionElement, updateFormat, updatesRequest } from './support/fixtures.js';
import { startLocalServer, type LocalServer } from './support/local-server.js';
import { cantonError, createMockLedger } from './support/mock-ledger.js';

function offsetOf(element: JsGetUpdatesResponse): number | undefined {
  const update = element.update as Record<string, { value: { offset: number } }>;
  const [value] = Object.values(update);
  return value?.value.offset;
}

async function waitFor(condition: () => boolean, timeoutMs = 3000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('updates() over a mocked participant', () => {
  let ledger: ReturnType<typeof createMockLedger>;
  afterEach(async () => {
    await ledger.done();
  });

  it('sends ONE POST /v2/updates with limit and stream_idle_timeout_ms, and emits every element in order', async () => {
    ledger = createMockLedger({ token: 'jwt' });
    const elements = [transactionElement(11), checkpointElement(12), transactionElement(15)];
    ledger.expect('POST', '/v2/updates', { data: elements });
    const got = await lastValueFrom(ledger.client.updates(updatesRequest(), { limit: 5, streamIdleTimeoutMs: 250 }).pipe(toArray()));
    expect(got.map(offsetOf)).toEqual([11, 12, 15]);
    expect(got[0]).toEqual(elements[0]);
    expect(ledger.requests).toHaveLength(1);
    const sent = ledger.requests[0];
    const url = new URL(`http://x${sent?.path}`);
    expect(url.pathname).toBe('/v2/updates');
    expect(Object.fromEntries(url.searchParams)).toEqual({ limit: '5', stream_idle_timeout_ms: '250' });
    expect(sent?.body).toEqual({ beginExclusive: 10, updateFormat });
    expect(sent?.headers['authorization']).toBe('Bearer jwt');
  });

  it('omits unset query parameters', async () => {
    ledger = createMockLedger();
    ledger.expect('POST', '/v2/updates', { data: [] });
    await lastValueFrom(ledger.client.updates(updatesRequest({ endInclusive: 20 })).pipe(toArray()));
    expect(ledger.requests[0]?.path).toBe('/v2/updates');
  });

  it('sends a legacy filter/verbose request as the updateFormat fromLegacyFilter builds, without filter/verbose', async () => {
    ledger = createMockLedger();
    ledger.expect('POST', '/v2/updates', { data: [] });
    const filter = { filtersByParty: { [ALICE]: { cumulative: [] } } };
    await lastValueFrom(ledger.client.updates({ beginExclusive: 3, filter, verbose: true }).pipe(toArray()));
    const body = ledger.requests[0]?.body as Record<string, unknown>;
    expect(body).toEqual({ beginExclusive: 3, updateFormat: JSON.parse(JSON.stringify(fromLegacyFilter(filter, true))) });
    expect(body).not.toHaveProperty('filter');
    expect(body).not.toHaveProperty('verbose');
  });

  it('is cold: nothing is sent until subscribe, and each subscription sends its own request', async () => {
    ledger = createMockLedger();
    const updates$ = ledger.client.updates(updatesRequest());
    expect(ledger.dispatched()).toBe(0);
    ledger.expect('POST', '/v2/updates', { data: [transactionElement(11)] }, 2);
    await lastValueFrom(updates$.pipe(toArray()));
    await lastValueFrom(updates$.pipe(toArray()));
    expect(ledger.requests).toHaveLength(2);
  });

  it('errors with the HTTP error before emitting anything', async () => {
    ledger = createMockLedger();
    ledger.expect('POST', '/v2/updates', {
      status: 413,
      data: cantonError({ code: 'JSON_API_MAXIMUM_LIST_ELEMENTS_NUMBER_REACHED', errorCategory: 2, grpcCodeValue: 10, retryInfo: '1 second', context: {}, resources: [] }),
    });
    const seen: unknown[] = [];
    const error = await new Promise<unknown>((resolve) => ledger.client.updates(updatesRequest()).subscribe({ next: (v) => seen.push(v), error: resolve }));
    expect(error).toBeInstanceOf(LedgerApiError);
    expect((error as LedgerApiError).status).toBe(413);
    expect(seen).toEqual([]);
  });

  it('validates elements by default (SCHEMA_MISMATCH) and not with validate: false', async () => {
    ledger = createMockLedger();
    const bad = { update: { Transaction: { value: { offset: 'eleven' } } } };
    ledger.expect('POST', '/v2/updates', { data: [bad] }, 2);
    await expect(lastValueFrom(ledger.client.updates(updatesRequest()))).rejects.toBeInstanceOf(ProtocolError);
    expect(await lastValueFrom(ledger.client.updates(updatesRequest(), { validate: false }).pipe(toArray()))).toEqual([bad]);
  });

  it('retries a 401 once with a fresh token from a provider', async () => {
    let n = 0;
    ledger = createMockLedger({ token: () => `t${++n}` });
    ledger.expect('POST', '/v2/updates', { status: 401, data: cantonError({ code: 'NA', errorCategory: -1, grpcCodeValue: 16 }) });
    ledger.expect('POST', '/v2/updates', { data: [transactionElement(11)] });
    expect(await lastValueFrom(ledger.client.updates(updatesRequest()).pipe(toArray()))).toHaveLength(1);
    expect(ledger.requests.map((r) => r.headers['authorization'])).toEqual(['Bearer t1', 'Bearer t2']);
  });

  // Each answer must keep the request's promise: offsets in (beginExclusive, endInclusive], strictly
  // increasing (or decreasing when descending); a checkpoint may repeat the position just reached.
  const tx = transactionElement;
  const cp = checkpointElement;
  const orderCases: { name: string; request: Partial<GetUpdatesRequest>; body: unknown[]; delivered: number[]; bad?: { offset: number; index: number } }[] = [
    { name: 'ascending, checkpoint at beginExclusive and at the last update', request: {}, body: [cp(10), tx(11), cp(11), tx(14)], delivered: [10, 11, 11, 14] },
    { name: 'a transaction going backwards', request: {}, body: [tx(11), tx(14), tx(12)], delivered: [11, 14], bad: { offset: 12, index: 2 } },
    { name: 'a duplicate transaction', request: {}, body: [tx(11), tx(12), tx(12)], delivered: [11, 12], bad: { offset: 12, index: 2 } },
    { name: 'an update repeating a checkpoint offset', request: {}, body: [tx(11), cp(13), tx(13)], delivered: [11, 13], bad: { offset: 13, index: 2 } },
    { name: 'a checkpoint going backwards', request: {}, body: [tx(11), tx(14), cp(13)], delivered: [11, 14], bad: { offset: 13, index: 2 } },
    { name: 'a transaction at beginExclusive', request: {}, body: [tx(10)], delivered: [], bad: { offset: 10, index: 0 } },
    { name: 'a transaction after endInclusive', request: { endInclusive: 20 }, body: [tx(19), tx(21)], delivered: [19], bad: { offset: 21, index: 1 } },
    { name: 'descending, strictly decreasing', request: { endInclusive: 20, descendingOrder: true }, body: [tx(20), tx(17), tx(11)], delivered: [20, 17, 11] },
    { name: 'descending, a step up', request: { endInclusive: 20, descendingOrder: true }, body: [tx(20), tx(15), tx(17)], delivered: [20, 15], bad: { offset: 17, index: 2 } },
    { name: 'descending, a duplicate', request: { endInclusive: 20, descendingOrder: true }, body: [tx(20), tx(20)], delivered: [20], bad: { offset: 20, index: 1 } },
  ];
  it.each(orderCases)('refuses an answer that breaks the requested order: $name', async ({ request, body, delivered, bad }) => {
    ledger = createMockLedger(); // unused: afterEach closes it
    for (const validate of [true, false]) {
      const mock = createMockLedger({ validateResponses: validate });
      mock.expect('POST', '/v2/updates', { data: body }, 2);
      const seen: (number | undefined)[] = [];
      const error = await new Promise<unknown>((resolve) =>
        mock.client.updates(updatesRequest(request)).subscribe({ next: (e) => seen.push(offsetOf(e)), error: resolve, complete: () => resolve(undefined) }),
      );
      expect(seen).toEqual(delivered);
      const iterated: (number | undefined)[] = [];
      const thrown = await (async () => {
        for await (const e of mock.client.iterateUpdates(updatesRequest(request))) iterated.push(offsetOf(e));
      })().then(() => undefined, (e: unknown) => e);
      expect(iterated).toEqual(delivered);
      for (const e of [error, thrown]) {
        if (bad === undefined) expect(e).toBeUndefined();
        else {
          expect(e).toBeInstanceOf(ProtocolError);
          expect(e).toMatchObject({ code: 'OFFSET_NOT_INCREASING', offset: bad.offset, elementIndex: bad.index, retryable: false });
        }
      }
      await mock.done();
    }
  });

  it('iterateUpdates yields the same elements', async () => {
    ledger = createMockLedger();
    ledger.expect('POST', '/v2/updates', { data: [transactionElement(11), transactionElement(12)] });
    const got: (number | undefined)[] = [];
    for await (const element of ledger.client.iterateUpdates(updatesRequest(), { limit: 2 })) got.push(offsetOf(element));
    expect(got).toEqual([11, 12]);
    expect(ledger.requests[0]?.path).toBe('/v2/updates?limit=2');
  });
});

describe('updates() over real sockets (incremental parsing, abort)', () => {
  let server: LocalServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  /** A server that writes the first element, then holds the response open until `release()`. */
  async function slowServer() {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    server = await startLocalServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(`[${JSON.stringify(transactionElement(11))}`);
      void released.then(() => {
        if (!res.destroyed) res.end(`,${JSON.stringify(transactionElement(12))}]`);
      });
    });
    return { url: server.url, release };
  }

  it('emits an element as soon as its bytes arrive, before the array is complete', async () => {
    const { url, release } = await slowServer();
    const client = createLedgerClient({ baseUrl: url });
    const seen: (number | undefined)[] = [];
    const done = new Promise<void>((resolve, reject) => {
      client.updates(updatesRequest()).subscribe({ next: (v) => seen.push(offsetOf(v)), error: reject, complete: resolve });
    });
    await waitFor(() => seen.length === 1);
    expect(seen).toEqual([11]);
    release();
    await done;
    expect(seen).toEqual([11, 12]);
    await client.close();
  });

  it('has no overall deadline: a long-poll answering after timeoutMs still succeeds', async () => {
    server = await startLocalServer((_req, res) => {
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(`[${JSON.stringify(checkpointElement(30))}]`);
      }, 400);
    });
    const client = createLedgerClient({ baseUrl: server.url, timeoutMs: 100 });
    const got = await lastValueFrom(client.updates(updatesRequest(), { streamIdleTimeoutMs: 300 }).pipe(toArray()));
    expect(got.map(offsetOf)).toEqual([30]);
    // the same wait fails a unary call with this client
    await expect(client.ledgerEnd()).rejects.toMatchObject({ code: 'REQUEST_TIMEOUT' });
    await client.close();
  });

  it('unsubscribing aborts the HTTP request', async () => {
    const { url } = await slowServer();
    const client = createLedgerClient({ baseUrl: url });
    const seen: unknown[] = [];
    const subscription = client.updates(updatesRequest()).subscribe({ next: (v) => seen.push(v) });
    await waitFor(() => seen.length === 1);
    expect(server?.abortedRequests()).toBe(0);
    subscription.unsubscribe();
    await waitFor(() => server?.abortedRequests() === 1);
    await client.close();
  });

  it('aborting the caller signal mid-body errors with AbortError after the elements so far', async () => {
    const { url } = await slowServer();
    const client = createLedgerClient({ baseUrl: url });
    const controller = new AbortController();
    const seen: unknown[] = [];
    const error = new Promise<unknown>((resolve) => {
      client.updates(updatesRequest(), { signal: controller.signal }).subscribe({ next: (v) => seen.push(v), error: resolve });
    });
    await waitFor(() => seen.length === 1);
    controller.abort();
    expect(await error).toBeInstanceOf(AbortError);
    await waitFor(() => server?.abortedRequests() === 1);
    await client.close();
  });

  it('a body cut mid-array is a retryable TransportError after the complete elements', async () => {
    server = await startLocalServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(`[${JSON.stringify(transactionElement(11))},{"update":{"Transac`);
      setTimeout(() => res.socket?.destroy(), 20);
    });
    const client = createLedgerClient({ baseUrl: server.url });
    const seen: (number | undefined)[] = [];
    const error = await new Promise<unknown>((resolve) => {
      client.updates(updatesRequest()).subscribe({ next: (v) => seen.push(offsetOf(v)), error: resolve, complete: () => resolve(undefined) });
    });
    expect(seen).toEqual([11]);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as TransportError).retryable).toBe(true);
    expect(['BODY_TRUNCATED', 'CONNECTION_RESET']).toContain((error as TransportError).code);
    await client.close();
  });

  it('breaking out of iterateUpdates aborts the request', async () => {
    const { url } = await slowServer();
    const client = createLedgerClient({ baseUrl: url });
    const seen: (number | undefined)[] = [];
    for await (const element of client.iterateUpdates(updatesRequest())) {
      seen.push(offsetOf(element));
      break;
    }
    expect(seen).toEqual([11]);
    await waitFor(() => server?.abortedRequests() === 1);
    await client.close();
  });
});
