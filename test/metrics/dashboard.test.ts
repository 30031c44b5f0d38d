import { describe, expect, it } from 'vitest';
import { allMetricFamilies, dashboardExpressions as expressions, readDashboard, seriesNamesIn } from '../support/metrics-docs.js';

const dashboard = readDashboard();
const dashboardExpressions = expressions();

describe('the Grafana dashboard (docs/grafana/ledger-rx.json)', () => {
  it('names only series that ledger-rx exposes, and uses every ledger_rx_ family', async () => {
    const families = await allMetricFamilies();
    const used = new Set(dashboardExpressions.flatMap(seriesNamesIn));
    expect([...used].filter((name) => !families.has(name))).toEqual([]);
    const base = (name: string) => name.replace(/_(bucket|sum|count)$/, '');
    const unused = [...families].filter((f) => f.startsWith('ledger_rx_') && ![...used].some((u) => base(u) === base(f)));
    expect(unused).toEqual([]);
  });

  it('shows throughput, lag, retries and commit latency, filtered by the stream and instance variables', () => {
    const titles = dashboard.panels.map((p) => p.title.toLowerCase());
    for (const topic of ['elements delivered', 'lag in offsets', 'lag in time', 'retries', 'commit latency']) expect(titles.some((t) => t.includes(topic))).toBe(true);
    expect(dashboard.templating.list.map((v) => v.name)).toEqual(['datasource', 'stream', 'instance']);
    for (const expr of dashboardExpressions.filter((e) => e.includes('ledger_rx_'))) expect(expr).toContain('stream=~"$stream"');
  });

  it('lays its panels out on the 24-column grid without overlaps, with unique ids', () => {
    const ids = dashboard.panels.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    const cells = new Set<string>();
    for (const p of dashboard.panels) {
      expect(p.gridPos.x + p.gridPos.w).toBeLessThanOrEqual(24);
      for (let x = p.gridPos.x; x < p.gridPos.x + p.gridPos.w; x++) {
        for (let y = p.gridPos.y; y < p.gridPos.y + p.gridPos.h; y++) {
          const cell = `${x},${y}`;
          expect(cells.has(cell), `${p.title} overlaps at ${cell}`).toBe(false);
          cells.add(cell);
        }
      }
    }
  });
});
