import { trace, SpanKind, SpanStatusCode, type Span } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { firstValueFrom, lastValueFrom, toArray } from 'rxjs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createLedgerClient, LedgerApiError, newCommandId, updateTraceContext, type LedgerClient } from '../../src/index.js';
import { tailUpdates } from '../../src/operators/index.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import type { JsGetUpdatesResponse } from '../../src/schemas/index.js';
import { parseTraceparent, updateContext } from '../../src/tracing/index.js';
import { startHeaderRecorder, type HeaderRecorder, type RecordedRequest } from '../support/header-recorder.js';
import { installTestSdk, type TestSdk } from '../support/otel-sdk.js';

/**
 * Trace context end to end: every request of the client (unary calls, the HTTP list, pages, the WebSocket
 * upgrade) reaches the sandbox with a W3C `traceparent`, through a forwarder that records what arrived.
 * Without an SDK each is a fresh unsampled one; with an in-memory SDK each is the span of that request.
 */
let sandbox: Sandbox;
let recorder: HeaderRecorder;
let client: LedgerClient;
let sdk: TestSdk | undefined;
let alice: string;
const anyParty = { includeTransactions: { eventFormat: { filtersForAnyParty: {} }, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' as const } };

beforeAll(async () => {
  sandbox = await startSandbox({ seed: 8, listWaitMs: 50 });
  recorder = await startHeaderRecorder(sandbox.url);
  client = createLedgerClient({ baseUrl: recorder.url, participantVersion: '3.6.0-SNAPSHOT' }) // known: every recorded request is an operation's own;
  alice = sandbox.partyId('Alice');
});
afterEach(async () => {
  await sdk?.uninstall();
  sdk = undefined;
});
afterAll(async () => {
  await client.close();
  await recorder.close();
  await sandbox.close();
});

/** One call of each kind: unary, the HTTP list, a page, the WebSocket stream, and a refused call. */
async function everyKindOfRequest(): Promise<{ listed: number; paged: number; streamed: number; refused: unknown }> {
  const end = (await client.ledgerEnd()).offset;
  const listed = await lastValueFrom(client.updates({ beginExclusive: 0, endInclusive: end, updateFormat: anyParty }, { limit: 3 }).pipe(toArray()));
  const page = await client.updatesPage({ beginOffsetExclusive: 0, endOffsetInclusive: end, maxPageSize: 2, updateFormat: anyParty });
  const streamed = await lastValueFrom(client.updates({ beginExclusive: 0, endInclusive: 4, updateFormat: anyParty }, { transport: 'websocket' }).pipe(toArray()));
  const refused = await client.getUser('nobody-here').catch((e: unknown) => e);
  return { listed: listed.length, paged: page.updates.length, streamed: streamed.length, refused };
}

const headerOf = (r: RecordedRequest) => r.headers['traceparent'] as string;
const routes = (requests: RecordedRequest[]) => requests.map((r) => `${r.method} ${r.url.split('?')[0]}${r.upgrade ? ' (WebSocket)' : ''}`);
const expectedRoutes = ['GET /v2/state/ledger-end', 'POST /v2/updates', 'POST /v2/updates/get-updates-page', 'GET /v2/updates (WebSocket)', 'GET /v2/users/nobody-here'];

describe('trace context on every request', () => {
  it('without an SDK: a fresh, valid, unsampled traceparent per request, which the error body names', async () => {
    const from = recorder.requests.length;
    const { refused } = await everyKindOfRequest();
    const seen = recorder.requests.slice(from);
    expect(routes(seen)).toEqual(expectedRoutes);
    const parsed = seen.map((r) => parseTraceparent(headerOf(r)));
    for (const p of parsed) expect(p).toMatchObject({ flags: 0 });
    expect(new Set(parsed.map((p) => p?.traceId)).size).toBe(seen.length);
    expect(refused).toBeInstanceOf(LedgerApiError);
    expect((refused as LedgerApiError).traceId).toBe(parsed[4]?.traceId); // the participant's error names our trace
  });

  it('with an SDK: each request is a client span of the active trace, and its traceparent is that span', async () => {
    sdk = installTestSdk();
    const from = recorder.requests.length;
    const tracer = trace.getTracer('app');
    const { result, app } = await tracer.startActiveSpan('reconcile', async (span: Span) => {
      const result = await everyKindOfRequest();
      span.end();
      return { result, app: span.spanContext() };
    });
    const spans = sdk.exporter.getFinishedSpans().filter((s) => s.name !== 'reconcile');
    expect(spans.map((s) => s.name).sort()).toEqual(
      ['GET /v2/state/ledger-end', 'POST /v2/updates', 'POST /v2/updates/get-updates-page', 'GET /v2/updates (WebSocket)', 'GET /v2/users/{user-id}'].sort(),
    );
    const seen = recorder.requests.slice(from);
    expect(routes(seen)).toEqual(expectedRoutes);
    const byName = new Map(spans.map((s) => [s.name, s]));
    const spanOf = (name: string) => byName.get(name) as ReadableSpan;
    for (const s of spans) {
      expect(s.kind).toBe(SpanKind.CLIENT);
      expect(s.spanContext().traceId).toBe(app.traceId);
      expect(s.parentSpanContext?.spanId).toBe(app.spanId);
    }
    // what the server received is each request's own span, sampled
    const names = ['GET /v2/state/ledger-end', 'POST /v2/updates', 'POST /v2/updates/get-updates-page', 'GET /v2/updates (WebSocket)', 'GET /v2/users/{user-id}'];
    seen.forEach((r, i) => expect(headerOf(r)).toBe(`00-${app.traceId}-${spanOf(names[i] as string).spanContext().spanId}-01`));

    expect(spanOf('POST /v2/updates').attributes).toMatchObject({
      'http.request.method': 'POST',
      'server.address': '127.0.0.1',
      'http.response.status_code': 200,
      'ledger_rx.begin_exclusive': 0,
      'ledger_rx.limit': 3,
      'ledger_rx.elements': result.listed,
    });
    expect(spanOf('POST /v2/updates/get-updates-page').attributes).toMatchObject({ 'ledger_rx.elements': result.paged, 'ledger_rx.limit': 2, 'ledger_rx.next_page': true });
    expect(spanOf('GET /v2/updates (WebSocket)').attributes).toMatchObject({ 'network.protocol.name': 'websocket', 'ledger_rx.begin_exclusive': 0, 'ledger_rx.end_inclusive': 4, 'ledger_rx.elements': result.streamed });
    expect(result.streamed).toBeGreaterThan(0);
    const failed = spanOf('GET /v2/users/{user-id}');
    expect(failed.status.code).toBe(SpanStatusCode.ERROR);
    expect(failed.attributes).toMatchObject({ 'http.response.status_code': 404, 'error.type': (result.refused as LedgerApiError).code });
    expect((result.refused as LedgerApiError).traceId).toBe(app.traceId);
  });

  it('with an SDK: the active contracts reads are spans too, over the WebSocket and page by page', async () => {
    sdk = installTestSdk();
    const from = recorder.requests.length;
    const end = sandbox.ledgerEnd();
    const read = (transport: 'websocket' | 'page') =>
      lastValueFrom(client.activeContracts({ eventFormat: { filtersForAnyParty: {} }, activeAtOffset: end }, { transport, pageSize: 50 }).pipe(toArray()));
    const [streamed, paged] = [await read('websocket'), await read('page')];
    expect(paged.length).toBe(streamed.length);
    const spans = sdk.exporter.getFinishedSpans();
    const seen = recorder.requests.slice(from);
    expect(seen.length).toBe(spans.length);
    for (const r of seen) expect(spans.map((s) => `00-${s.spanContext().traceId}-${s.spanContext().spanId}-01`)).toContain(headerOf(r));
    const ws = spans.filter((s) => s.name === 'GET /v2/state/active-contracts (WebSocket)');
    const pages = spans.filter((s) => s.name === 'GET /v2/state/active-contracts-page');
    expect(ws.map((s) => s.attributes['ledger_rx.elements'])).toEqual([streamed.length]);
    expect(pages.reduce((n, s) => n + (s.attributes['ledger_rx.elements'] as number), 0)).toBe(paged.length);
    expect(pages.length).toBeGreaterThanOrEqual(Math.max(1, Math.ceil(paged.length / 50)));
  });

  it("with an SDK: a consumer continues the submitter's trace from the update's traceContext", async () => {
    sdk = installTestSdk();
    const tracer = trace.getTracer('app');
    const before = sandbox.ledgerEnd();
    const submitter = await tracer.startActiveSpan('place order', async (span: Span) => {
      await client.submit({
        commands: [{ CreateCommand: { templateId: '#ledger-rx-demo:Iou:Iou', createArguments: { issuer: alice, owner: alice, currency: 'EUR', amount: '1.0000000000', observers: [] } } }],
        commandId: newCommandId('traced'),
        actAs: [alice],
        userId: 'participant_admin',
      });
      span.end();
      return span.spanContext();
    });
    const element: JsGetUpdatesResponse = await firstValueFrom(tailUpdates(client, { beginExclusive: before, updateFormat: anyParty }));
    const submitSpan = sdk.exporter.getFinishedSpans().find((s) => s.name === 'POST /v2/commands/async/submit') as ReadableSpan;
    expect(updateTraceContext(element)?.traceparent).toBe(`00-${submitter.traceId}-${submitSpan.spanContext().spanId}-01`);
    const handled = tracer.startSpan('book payment', {}, updateContext(element));
    handled.end();
    const exported = sdk.exporter.getFinishedSpans().find((s) => s.name === 'book payment') as ReadableSpan;
    expect(exported.spanContext().traceId).toBe(submitter.traceId);
    expect(exported.parentSpanContext?.spanId).toBe(submitSpan.spanContext().spanId);
    // the tail's read was a span too (a WebSocket stream, the default transport), outside the submitter's trace
    const read = sdk.exporter.getFinishedSpans().find((s) => s.name === 'GET /v2/updates (WebSocket)') as ReadableSpan;
    expect(read.attributes).toMatchObject({ 'ledger_rx.begin_exclusive': before, 'ledger_rx.cancelled': true });
    expect(read.spanContext().traceId).not.toBe(submitter.traceId);
  });
});
