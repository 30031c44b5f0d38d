import { createServer } from 'node:net';
import { Registry } from 'prom-client';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { collectMetrics, ReadinessTracker, startMetricsServer, type MetricsServer } from '../../src/metrics/index.js';
import { parsePrometheusText } from '../support/prometheus-text.js';

let server: MetricsServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function get(path: string, method: 'GET' | 'HEAD' | 'POST' = 'GET') {
  const r = await request(`${(server as MetricsServer).url}${path}`, { method });
  return { status: r.statusCode, type: r.headers['content-type'], body: await r.body.text() };
}

describe('startMetricsServer', () => {
  it('serves /metrics in the Prometheus text format, /healthz, and /readyz from the readiness', async () => {
    const registry = new Registry();
    const metrics = collectMetrics(registry, { stream: 'x' });
    const readiness = new ReadinessTracker({ stallAfterMs: 10_000 });
    server = await startMetricsServer({ registry, readiness: () => readiness.check() });
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

    metrics.onStatus({ type: 'progress', transport: 'http', delivered: { transaction: 2, reassignment: 0, topology: 0, checkpoint: 0, unknown: 0 }, bytes: 9, offset: 4, recordTime: undefined });
    const m = await get('/metrics');
    expect(m.status).toBe(200);
    expect(m.type).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(parsePrometheusText(m.body).value('ledger_rx_elements_total', { stream: 'x', kind: 'transaction' })).toBe(2);

    expect(await get('/healthz')).toMatchObject({ status: 200, body: 'ok\n' });
    const notReady = await get('/readyz');
    expect(notReady.status).toBe(503);
    expect(JSON.parse(notReady.body)).toMatchObject({ ready: false, reason: 'starting' });
    readiness.onStatus({ type: 'resumed', fromOffset: 4, attempt: 0, transport: 'http' });
    const ready = await get('/readyz?verbose=1');
    expect(ready.status).toBe(200);
    expect(JSON.parse(ready.body)).toMatchObject({ ready: true, reason: 'caught-up', position: 4 });
  });

  it('answers HEAD without a body, 405 to other methods and 404 elsewhere; /readyz is /healthz without a readiness', async () => {
    server = await startMetricsServer({ registry: new Registry() });
    expect(await get('/metrics', 'HEAD')).toMatchObject({ status: 200, body: '' });
    expect(await get('/metrics', 'POST')).toMatchObject({ status: 405 });
    expect(await get('/')).toMatchObject({ status: 404 });
    expect(await get('/readyz')).toMatchObject({ status: 200, body: 'ok\n' });
  });

  it('answers 500 when collecting fails, and keeps serving', async () => {
    const registry = new Registry();
    registry.registerMetric({ name: 'broken', help: 'x', type: 'gauge', get: () => Promise.reject(new Error('boom')) } as never);
    server = await startMetricsServer({ registry });
    expect(await get('/metrics')).toMatchObject({ status: 500, body: expect.stringContaining('boom') });
    expect(await get('/healthz')).toMatchObject({ status: 200 });
  });

  it('rejects when the port is taken', async () => {
    const taken = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
    const port = (taken.address() as { port: number }).port;
    await expect(startMetricsServer({ registry: new Registry(), port })).rejects.toThrow(/EADDRINUSE/);
    await new Promise((r) => taken.close(r));
  });
});
