import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Registry } from 'prom-client';
import { parse } from 'yaml';
import { collectMetrics } from '../../src/metrics/index.js';
import { repoRoot } from './shared-dir.js';

/** A panel of the Grafana dashboard. */
export interface DashboardPanel {
  readonly id: number;
  readonly type: string;
  readonly title: string;
  readonly gridPos: { readonly x: number; readonly y: number; readonly w: number; readonly h: number };
  readonly targets?: readonly { readonly expr: string; readonly refId: string }[];
}

/** docs/grafana/ledger-rx.json, parsed. */
export function readDashboard(): { uid: string; panels: DashboardPanel[]; templating: { list: { name: string }[] } } {
  return JSON.parse(readFileSync(join(repoRoot, 'docs', 'grafana', 'ledger-rx.json'), 'utf8')) as ReturnType<typeof readDashboard>;
}

/** Every PromQL expression of the dashboard. */
export function dashboardExpressions(): string[] {
  return readDashboard().panels.flatMap((p) => (p.targets ?? []).map((t) => t.expr));
}

/** The path of docs/prometheus/ledger-rx-alerts.yml. */
export const alertRulesPath = join(repoRoot, 'docs', 'prometheus', 'ledger-rx-alerts.yml');

/** The alerting rules of docs/prometheus/ledger-rx-alerts.yml. */
export function alertRules(): { alert: string; expr: string }[] {
  const doc = parse(readFileSync(alertRulesPath, 'utf8')) as { groups: { rules: { alert: string; expr: string }[] }[] };
  return doc.groups.flatMap((g) => g.rules);
}

/**
 * The metric families a fully fed ledger-rx daemon exposes (every ledger_rx_ series, process metrics
 * included), for checking that dashboards and alert rules only name series that exist.
 */
export async function allMetricFamilies(): Promise<Set<string>> {
  const registry = new Registry();
  const m = collectMetrics(registry, { processMetrics: true, readiness: () => ({ ready: true }) });
  m.onStatus({ type: 'progress', transport: 'http', delivered: { transaction: 1, reassignment: 0, topology: 0, checkpoint: 0, unknown: 0 }, bytes: 1, offset: 1, recordTime: '2026-01-01T00:00:00Z' });
  m.onStatus({ type: 'request', transport: 'http', outcome: 'ok', elements: 1, limit: 1, durationMs: 1 });
  m.observeLedgerEnd(2);
  const families = new Set<string>();
  for (const metric of await registry.getMetricsAsJSON()) {
    families.add(metric.name);
    if (String(metric.type) === 'histogram') for (const s of ['_bucket', '_sum', '_count']) families.add(`${metric.name}${s}`);
  }
  return families;
}

/** The metric names a PromQL expression refers to (identifiers followed by `{`, `[` or used bare as a series). */
export function seriesNamesIn(expr: string): string[] {
  const withoutStrings = expr.replace(/"(?:[^"\\]|\\.)*"/g, '""');
  return [...withoutStrings.matchAll(/\b((?:ledger_rx|process|nodejs)_[a-z0-9_]+)\b/g)].map((m) => m[1] as string);
}
