import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { LedgerApiError, TransportError } from '../../src/errors/index.js';
import { collectMetrics } from '../../src/metrics/index.js';
import type { Checkpoint, TailStatus } from '../../src/operators/index.js';
import { parsePrometheusText } from '../support/prometheus-text.js';

const delivered = (c: Partial<Record<'transaction' | 'reassignment' | 'topology' | 'checkpoint' | 'unknown', number>>) => ({
  transaction: 0,
  reassignment: 0,
  topology: 0,
  checkpoint: 0,
  unknown: 0,
  ...c,
});
const progress = (offset: number, c: Parameters<typeof delivered>[0], bytes = 0, recordTime?: string): TailStatus => ({
  type: 'progress',
  transport: 'http',
  delivered: delivered(c),
  bytes,
  offset,
  recordTime,
});
const request = (outcome: 'ok' | 'error' | 'cancelled', elements: number, limit?: number): TailStatus => ({
  type: 'request',
  transport: 'http',
  outcome,
  elements,
  limit,
  durationMs: 3,
});

async function scrape(registry: Registry) {
  return parsePrometheusText(await registry.metrics());
}

describe('collectMetrics', () => {
  it('counts elements by kind, bytes, requests by outcome, page sizes, and keeps the position', async () => {
    const registry = new Registry();
    const m = collectMetrics(registry, { stream: 'ious' });
    m.onStatus({ type: 'resumed', fromOffset: 10, attempt: 0, transport: 'http' });
    m.onStatus(progress(20, { transaction: 3, checkpoint: 1 }, 4_000));
    m.onStatus(request('ok', 4, 8));
    m.onStatus(progress(25, { reassignment: 1, topology: 2, unknown: 1 }, 1_000));
    m.onStatus(request('ok', 4, 16));
    m.onStatus(request('cancelled', 0, 1));
    const x = await scrape(registry);
    expect(x.types.get('ledger_rx_elements_total')).toBe('counter');
    expect(x.value('ledger_rx_elements_total', { stream: 'ious', kind: 'transaction' })).toBe(3);
    expect(x.value('ledger_rx_elements_total', { kind: 'checkpoint' })).toBe(1);
    expect(x.value('ledger_rx_elements_total', { kind: 'reassignment' })).toBe(1);
    expect(x.value('ledger_rx_elements_total', { kind: 'topology' })).toBe(2);
    expect(x.value('ledger_rx_elements_total', { kind: 'unknown' })).toBe(1);
    expect(x.value('ledger_rx_read_bytes_total', { transport: 'http' })).toBe(5_000);
    expect(x.value('ledger_rx_requests_total', { transport: 'http', outcome: 'ok' })).toBe(2);
    expect(x.value('ledger_rx_requests_total', { outcome: 'cancelled' })).toBe(1);
    expect(x.value('ledger_rx_page_elements_count', { transport: 'http' })).toBe(2);
    expect(x.value('ledger_rx_page_elements_sum')).toBe(8);
    expect(x.value('ledger_rx_page_elements_bucket', { le: '2' })).toBe(0);
    expect(x.value('ledger_rx_page_elements_bucket', { le: '5' })).toBe(2);
    expect(x.value('ledger_rx_page_limit_elements')).toBe(1);
    expect(x.value('ledger_rx_offset', { stream: 'ious' })).toBe(25);
    // no ledger end known yet: no lag series rather than a wrong one
    expect(x.find('ledger_rx_lag_offsets')).toEqual([]);
  });

  it('starts every element series at 0 before the first element, so rate() sees the first ones', async () => {
    const registry = new Registry();
    collectMetrics(registry);
    const x = await scrape(registry);
    expect(x.find('ledger_rx_elements_total').map((s) => [s.labels['kind'], s.value])).toEqual([
      ['transaction', 0],
      ['reassignment', 0],
      ['topology', 0],
      ['checkpoint', 0],
      ['unknown', 0],
    ]);
    expect(x.find('ledger_rx_elements_total').every((s) => s.labels['stream'] === 'default')).toBe(true);
  });

  it('counts retries by error code and reconnects by transport, with bounded label values', async () => {
    const registry = new Registry();
    const m = collectMetrics(registry);
    const busy = new LedgerApiError({ status: 503, body: { code: 'SERVICE_BUSY', cause: 'x', correlationId: null, traceId: null, context: {}, resources: [], errorCategory: 2, grpcCodeValue: 14, retryInfo: null, definiteAnswer: null } });
    m.onStatus({ type: 'retrying', attempt: 1, delayMs: 10, error: new TransportError('CONNECTION_RESET', 'reset') });
    m.onStatus({ type: 'retrying', attempt: 2, delayMs: 20, error: busy });
    m.onStatus({ type: 'retrying', attempt: 3, delayMs: 40, error: new TransportError('CONNECTION_RESET', 'reset') });
    m.onStatus({ type: 'retrying', attempt: 4, delayMs: 80, error: Object.assign(new Error('x'), { code: 'contract 00abc… of Alice::1220' }) });
    m.onStatus({ type: 'retrying', attempt: 5, delayMs: 80, error: 'not an error' });
    m.onStatus({ type: 'resumed', fromOffset: 0, attempt: 0, transport: 'websocket' });
    m.onStatus({ type: 'resumed', fromOffset: 4, attempt: 1, transport: 'websocket' });
    m.onStatus({ type: 'resumed', fromOffset: 4, attempt: 2, transport: 'Not A Transport Name!' });
    const x = await scrape(registry);
    expect(x.value('ledger_rx_retries_total', { code: 'CONNECTION_RESET' })).toBe(2);
    expect(x.value('ledger_rx_retries_total', { code: 'SERVICE_BUSY' })).toBe(1);
    expect(x.value('ledger_rx_retries_total', { code: 'other' })).toBe(2);
    expect(x.value('ledger_rx_reconnects_total', { transport: 'websocket' })).toBe(1);
    expect(x.value('ledger_rx_reconnects_total', { transport: 'other' })).toBe(1);
  });

  it('computes the lag from the ledger end it observes, in offsets and seconds, and 0 seconds when caught up', async () => {
    const registry = new Registry();
    let now = Date.parse('2026-03-01T12:00:10Z');
    const m = collectMetrics(registry, { now: () => now });
    m.onStatus(progress(40, { transaction: 1 }, 0, '2026-03-01T12:00:00Z'));
    m.observeLedgerEnd(100);
    let x = await scrape(registry);
    expect(x.value('ledger_rx_ledger_end_offset')).toBe(100);
    expect(x.value('ledger_rx_lag_offsets')).toBe(60);
    expect(x.value('ledger_rx_lag_seconds')).toBe(10);
    now += 5_000;
    m.onStatus({ type: 'ledger-end', offset: 90 }); // an older answer never moves it back
    m.onStatus(progress(100, { transaction: 3 }, 0, '2026-03-01T12:00:14Z'));
    x = await scrape(registry);
    expect(x.value('ledger_rx_lag_offsets')).toBe(0);
    expect(x.value('ledger_rx_lag_seconds')).toBe(0);
    // the position never runs ahead of the ledger end it reports
    m.onStatus(progress(120, { transaction: 1 }, 0, '2026-03-01T12:00:14Z'));
    x = await scrape(registry);
    expect(x.value('ledger_rx_ledger_end_offset')).toBe(120);
    expect(x.value('ledger_rx_lag_offsets')).toBe(0);
  });

  it('looks the ledger end up when scraped, at most once a second, keeping the last answer when a look-up fails', async () => {
    const registry = new Registry();
    let now = 1_000_000;
    let calls = 0;
    let answer: () => Promise<{ offset: number }> = () => Promise.resolve({ offset: 70 });
    const m = collectMetrics(registry, {
      now: () => now,
      ledgerEnd: () => {
        calls++;
        return answer();
      },
    });
    m.onStatus(progress(50, { transaction: 1 }, 0, new Date(now - 2_000).toISOString()));
    let x = await scrape(registry);
    expect(calls).toBe(1); // three gauges need it: one look-up
    expect(x.value('ledger_rx_lag_offsets')).toBe(20);
    expect(x.value('ledger_rx_lag_seconds')).toBe(2);
    await scrape(registry);
    expect(calls).toBe(1);
    now += 1_000;
    answer = () => Promise.reject(new Error('participant down'));
    x = await scrape(registry);
    expect(calls).toBe(2);
    expect(x.value('ledger_rx_lag_offsets')).toBe(20);
  });

  it('records checkpoint saves through an instrumented store, failures apart, and ingest commits', async () => {
    const registry = new Registry();
    const m = collectMetrics(registry, { stream: 's' });
    const saved: Checkpoint[] = [];
    let fail = false;
    const store = m.instrumentCheckpointStore({
      load: () => Promise.resolve(undefined),
      save: async (c) => {
        await new Promise((r) => setTimeout(r, 5));
        if (fail) throw new Error('disk full');
        saved.push(c);
      },
    });
    const cp = { offset: 3, synchronizerTimes: [], updatedAt: '2026-01-01T00:00:00Z' };
    await store.save(cp);
    fail = true;
    await expect(store.save({ ...cp, offset: 4 })).rejects.toThrow('disk full');
    expect(saved).toEqual([cp]);
    m.batchCommitted({ elements: 250, durationMs: 12 });
    const x = await scrape(registry);
    expect(x.value('ledger_rx_checkpoint_commits_total', { outcome: 'ok' })).toBe(2);
    expect(x.value('ledger_rx_checkpoint_commits_total', { outcome: 'error' })).toBe(1);
    expect(x.value('ledger_rx_checkpoint_commit_duration_seconds_count')).toBe(2);
    expect(x.value('ledger_rx_checkpoint_commit_duration_seconds_bucket', { le: '0.001' })).toBe(0);
    expect(x.value('ledger_rx_ingest_batch_elements_sum')).toBe(250);
    expect(x.value('ledger_rx_ingest_batch_elements_bucket', { le: '100' })).toBe(0);
    expect(x.value('ledger_rx_ingest_batch_elements_bucket', { le: '250' })).toBe(1);
    expect(x.value('ledger_rx_ingest_commit_duration_seconds_sum')).toBeCloseTo(0.012);
  });

  it('exports the readiness it is given as ledger_rx_ready, and no such series without one', async () => {
    const registry = new Registry();
    let ready = false;
    collectMetrics(registry, { stream: 'r', readiness: () => ({ ready }) });
    collectMetrics(registry, { stream: 'plain' });
    expect((await scrape(registry)).find('ledger_rx_ready')).toEqual([{ name: 'ledger_rx_ready', labels: { stream: 'r' }, value: 0 }]);
    ready = true;
    expect((await scrape(registry)).value('ledger_rx_ready', { stream: 'r' })).toBe(1);
  });

  it('keeps streams apart on one registry, and adds the process metrics once when asked', async () => {
    const registry = new Registry();
    const a = collectMetrics(registry, { stream: 'a', processMetrics: true });
    const b = collectMetrics(registry, { stream: 'b', processMetrics: true });
    a.onStatus(progress(5, { transaction: 5 }));
    b.onStatus(progress(7, { transaction: 2 }));
    const x = await scrape(registry);
    expect(x.value('ledger_rx_elements_total', { stream: 'a', kind: 'transaction' })).toBe(5);
    expect(x.value('ledger_rx_elements_total', { stream: 'b', kind: 'transaction' })).toBe(2);
    expect(x.value('ledger_rx_offset', { stream: 'b' })).toBe(7);
    expect(x.types.get('process_cpu_seconds_total')).toBe('counter');
    expect(x.types.has('nodejs_eventloop_lag_seconds')).toBe(true);
    expect(() => collectMetrics(registry, { stream: '' })).toThrow(/stream/);
  });

  it('names every series under ledger_rx_ with a unit, and never labels by party, contract or token', async () => {
    const registry = new Registry();
    const m = collectMetrics(registry);
    m.onStatus(progress(1, { transaction: 1 }, 10, '2026-01-01T00:00:00Z'));
    m.onStatus(request('ok', 1, 8));
    m.onStatus({ type: 'retrying', attempt: 1, delayMs: 1, error: new TransportError('CONNECTION_RESET', 'x') });
    m.onStatus({ type: 'resumed', fromOffset: 1, attempt: 1, transport: 'http' });
    m.observeLedgerEnd(2);
    m.batchCommitted({ elements: 1, durationMs: 1 });
    collectMetrics(registry, { readiness: () => ({ ready: true }) });
    const x = await scrape(registry);
    for (const [family, type] of x.types) {
      expect(family).toMatch(/^ledger_rx_/);
      if (type === 'counter') expect(family).toMatch(/_total$/);
      else if (family !== 'ledger_rx_ready') expect(family).toMatch(/_(offset|offsets|seconds|elements|bytes)$/);
    }
    const labelNames = new Set(x.samples.flatMap((s) => Object.keys(s.labels)));
    expect([...labelNames].sort()).toEqual(['code', 'kind', 'le', 'outcome', 'stream', 'transport']);
  });
});
