import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { havePrometheus, startPrometheus, type PrometheusServer } from '../../scripts/prometheus-server.js';
import { alertRulesPath, dashboardExpressions } from '../support/metrics-docs.js';
import { eventually } from '../support/eventually.js';
import { parsePrometheusText } from '../support/prometheus-text.js';
import { spawnCli, type SpawnedCli } from '../support/spawn-cli.js';

const pgUrl = inject('pgUrl');
const prometheus = havePrometheus();
if (!prometheus && process.env['CI']) throw new Error('prometheus (Debian package prometheus) is required under CI');

/**
 * A real Prometheus scraping a running `ledger-rx ingest --sandbox --metrics-port 0`: the series arrive in
 * its TSDB, the element counter grows between scrapes, the lag and commit series are there, the alerting
 * rules load and evaluate, and every expression of the Grafana dashboard is valid PromQL.
 */
describe.runIf(prometheus && pgUrl)('metrics scraped by a real Prometheus', () => {
  let ingest: SpawnedCli;
  let server: PrometheusServer;
  let metricsUrl: string;

  beforeAll(async () => {
    ingest = spawnCli(['ingest', '--sandbox', '--pg', pgUrl as string, '--schema', `prom_e2e_${process.pid}`, '--stream-name', 'prom', '--metrics-port', '0', '--batch-ms', '100', '--log-level', 'info']);
    metricsUrl = await eventually(async () => {
      const line = ingest.stderr().split('\n').find((l) => l.includes('serving /metrics'));
      return line ? (JSON.parse(line) as { url: string }).url : undefined;
    }, 'the metrics server of ingest');
    server = (await startPrometheus({ targets: [new URL(metricsUrl).host], ruleFiles: [alertRulesPath] })) as PrometheusServer;
  }, 60_000);

  afterAll(async () => {
    ingest?.child.kill('SIGTERM');
    const exit = await ingest?.exited;
    await server?.stop();
    expect(exit?.code, ingest?.stderr()).toBe(0);
  });

  it('serves /metrics in a format this Prometheus scrapes: the element counter grows, lag and commits are recorded', async ({ signal }) => {
    const own = parsePrometheusText(await (await fetch(`${metricsUrl}/metrics`)).text());
    expect(own.types.get('ledger_rx_elements_total')).toBe('counter');

    const up = await eventually(async () => (await server.query('up{job="ledger-rx"}'))[0]?.value[1], 'a first scrape', { signal });
    expect(up).toBe('1');
    const counted = async () => {
      const r = await server.query('sum(ledger_rx_elements_total{kind="transaction", stream="prom"})');
      return r[0] ? Number(r[0].value[1]) : undefined;
    };
    const first = await eventually(counted, 'ledger_rx_elements_total in Prometheus', { signal });
    const later = await eventually(async () => {
      const n = await counted();
      return n !== undefined && n > first ? n : undefined;
    }, 'ledger_rx_elements_total to grow between scrapes', { signal });
    expect(later).toBeGreaterThan(first);

    const lag = await server.query('ledger_rx_lag_offsets{stream="prom"}');
    expect(lag).toHaveLength(1);
    expect(Number(lag[0]?.value[1])).toBeGreaterThanOrEqual(0);
    expect(await server.query('ledger_rx_lag_seconds{stream="prom"}')).toHaveLength(1);
    const commits = await eventually(async () => {
      const r = await server.query('ledger_rx_ingest_commit_duration_seconds_count{stream="prom"} > 0');
      return r[0] ? Number(r[0].value[1]) : undefined;
    }, 'an ingest commit', { signal });
    expect(commits).toBeGreaterThan(0);
    expect(await server.query('ledger_rx_ready{stream="prom"} == 1')).toHaveLength(1);
    expect(await server.query('process_resident_memory_bytes{job="ledger-rx"}')).toHaveLength(1);
  }, 120_000);

  it('loads the alerting rules and evaluates them without errors; a healthy ingest settles with none pending', async ({ signal }) => {
    let last: unknown;
    const rules = await eventually(async () => {
      const data = (await server.api('rules')) as { groups: { rules: { name: string; health: string; state: string; lastError?: string }[] }[] };
      const all = data.groups.flatMap((g) => g.rules);
      last = all.map((r) => ({ name: r.name, health: r.health, state: r.state, error: r.lastError }));
      return all.length > 0 && all.every((r) => r.health === 'ok' && r.state === 'inactive') ? all : undefined;
    }, 'the rules to be evaluated, none pending', { signal }).catch((error: unknown) => {
      throw new Error(`${String(error)}: ${JSON.stringify(last)}`);
    });
    expect(rules.map((r) => r.name).sort()).toEqual([
      'LedgerRxCheckpointFailing',
      'LedgerRxIngestCommitSlow',
      'LedgerRxLagging',
      'LedgerRxNotReady',
      'LedgerRxRetrying',
      'LedgerRxStalled',
    ]);
  }, 120_000);

  it('accepts every expression of the Grafana dashboard', async () => {
    for (const expr of dashboardExpressions()) {
      const concrete = expr.replaceAll('$__rate_interval', '5s').replaceAll('$stream', '.*').replaceAll('$instance', '.*');
      await expect(server.query(concrete), expr).resolves.toBeInstanceOf(Array);
    }
    const throughput = await server.query('sum by (kind) (rate(ledger_rx_elements_total{stream=~".*"}[5s]))');
    expect(throughput.map((r) => r.metric['kind']).sort()).toEqual(['checkpoint', 'reassignment', 'topology', 'transaction', 'unknown']);
  });
});
