import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { afterEach, describe, expect, it } from 'vitest';
import { TransportError } from '../../src/errors/index.js';
import type { JsGetUpdatesResponse } from '../../src/schemas/index.js';
import { parseTraceparent, updateContext, updateTraceContext } from '../../src/tracing/index.js';
import { traceRequest } from '../../src/tracing/trace-request.js';
import { newTraceparent } from '../../src/tracing/traceparent.js';
import { installTestSdk, type TestSdk } from '../support/otel-sdk.js';

let sdk: TestSdk | undefined;
afterEach(async () => {
  await sdk?.uninstall();
  sdk = undefined;
});

const tx = (traceContext: unknown) => ({ update: { Transaction: { value: { offset: 1, traceContext } } } }) as JsGetUpdatesResponse;
const submitter = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';

describe('traceparent', () => {
  it.each([
    [submitter, { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', flags: 1 }],
    ['01-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00-future', { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', flags: 0 }],
    ['00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01-extra', undefined],
    ['ff-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01', undefined],
    ['00-00000000000000000000000000000000-b7ad6b7169203331-01', undefined],
    ['00-0af7651916cd43dd8448eb211c80319c-0000000000000000-01', undefined],
    ['00-0AF7651916CD43DD8448EB211C80319C-b7ad6b7169203331-01', undefined],
    ['not a traceparent', undefined],
  ])('parses %s', (text, parsed) => {
    expect(parseTraceparent(text)).toEqual(parsed);
  });

  it('makes fresh, valid, unsampled ones', () => {
    const a = newTraceparent();
    const b = newTraceparent();
    expect(parseTraceparent(a)).toMatchObject({ flags: 0 });
    expect(parseTraceparent(b)?.traceId).not.toBe(parseTraceparent(a)?.traceId);
  });
});

describe('traceRequest', () => {
  it('without an SDK, sends a fresh traceparent on every request and records nothing', async () => {
    const first = await traceRequest('GET /v2/version', {});
    const second = await traceRequest('GET /v2/version', {});
    expect(first.recording).toBe(false);
    expect(parseTraceparent(first.headers['traceparent'] as string)).toBeDefined();
    expect(first.headers['traceparent']).not.toBe(second.headers['traceparent']);
    first.end({ status: 200 });
    second.end({ error: new TransportError('CONNECTION_RESET', 'x') });
  });

  it('with an SDK, the request is a client span under the active one, and the header carries its context', async () => {
    sdk = installTestSdk();
    const tracer = trace.getTracer('app');
    const ok = await tracer.startActiveSpan('handle order', async (active) => {
      const t = await traceRequest('POST /v2/updates', { 'http.request.method': 'POST', 'ledger_rx.limit': undefined });
      expect(t.recording).toBe(true);
      t.end({ status: 200, attributes: { 'ledger_rx.elements': 3 } });
      active.end();
      return { header: t.headers['traceparent'] as string, trace: active.spanContext() };
    });
    const spans = (sdk as TestSdk).exporter.getFinishedSpans();
    const request = spans.find((s) => s.name === 'POST /v2/updates');
    expect(request).toMatchObject({ kind: SpanKind.CLIENT, attributes: { 'http.request.method': 'POST', 'http.response.status_code': 200, 'ledger_rx.elements': 3 } });
    expect(request?.attributes).not.toHaveProperty('ledger_rx.limit');
    expect(request?.parentSpanContext?.spanId).toBe(ok.trace.spanId);
    expect(request?.spanContext().traceId).toBe(ok.trace.traceId);
    expect(parseTraceparent(ok.header)).toEqual({ traceId: ok.trace.traceId, spanId: request?.spanContext().spanId, flags: 1 });
  });

  it('marks a failed request with its error code', async () => {
    sdk = installTestSdk();
    const t = await traceRequest('GET /v2/state/ledger-end', {});
    t.end({ error: new TransportError('CONNECTION_FAILED', 'refused') });
    t.end({ status: 200 }); // idempotent
    const [span] = (sdk as TestSdk).exporter.getFinishedSpans();
    expect(span?.status.code).toBe(SpanStatusCode.ERROR);
    expect(span?.attributes['error.type']).toBe('CONNECTION_FAILED');
    expect(span?.events.map((e) => e.name)).toEqual(['exception']);
  });
});

describe("an update's trace context", () => {
  it('is read from transactions, reassignments and topology transactions, and refused when malformed', () => {
    expect(updateTraceContext(tx({ traceparent: submitter, tracestate: 'vendor=x' }))).toEqual({ traceparent: submitter, tracestate: 'vendor=x' });
    expect(updateTraceContext(tx({ traceparent: submitter, tracestate: null }))).toEqual({ traceparent: submitter });
    expect(updateTraceContext({ update: { Reassignment: { value: { traceContext: { traceparent: submitter } } } } } as JsGetUpdatesResponse)).toEqual({ traceparent: submitter });
    expect(updateTraceContext(tx({ traceparent: 'garbage' }))).toBeUndefined();
    expect(updateTraceContext(tx(null))).toBeUndefined();
    expect(updateTraceContext({ update: { OffsetCheckpoint: { value: { offset: 3, synchronizerTimes: [] } } } } as JsGetUpdatesResponse)).toBeUndefined();
  });

  it("continues the submitter's trace with an SDK, and is the parent context without one", () => {
    const plain = updateContext(tx({ traceparent: submitter }));
    expect(trace.getSpanContext(plain)).toBeUndefined();
    sdk = installTestSdk();
    const ctx = updateContext(tx({ traceparent: submitter }));
    expect(trace.getSpanContext(ctx)).toMatchObject({ traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', isRemote: true });
    const span = trace.getTracer('app').startSpan('book payment', {}, ctx);
    span.end();
    const [exported] = (sdk as TestSdk).exporter.getFinishedSpans();
    expect(exported?.spanContext().traceId).toBe('0af7651916cd43dd8448eb211c80319c');
    expect(exported?.parentSpanContext?.spanId).toBe('b7ad6b7169203331');
  });
});
