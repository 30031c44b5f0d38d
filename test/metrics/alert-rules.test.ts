import { spawnSync } from 'node:child_process';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { alertRules, alertRulesPath, allMetricFamilies, seriesNamesIn } from '../support/metrics-docs.js';

const promtool = spawnSync('promtool', ['--version']).status === 0;
if (!promtool && process.env['CI']) throw new Error('promtool (Debian package prometheus) is required under CI');

describe('the alerting rules (docs/prometheus/ledger-rx-alerts.yml)', () => {
  it('name only series that ledger-rx exposes', async () => {
    const families = await allMetricFamilies();
    const rules = alertRules();
    expect(rules.length).toBeGreaterThanOrEqual(5);
    for (const rule of rules) {
      const names = seriesNamesIn(rule.expr);
      expect(names.length, rule.alert).toBeGreaterThan(0);
      expect(names.filter((n) => !families.has(n)), rule.alert).toEqual([]);
    }
  });

  it.skipIf(!promtool)('pass promtool check rules and their unit tests (promtool test rules)', () => {
    const check = spawnSync('promtool', ['check', 'rules', alertRulesPath], { encoding: 'utf8' });
    expect(check.status, check.stdout + check.stderr).toBe(0);
    const test = spawnSync('promtool', ['test', 'rules', 'ledger-rx-alerts.test.yml'], { cwd: dirname(alertRulesPath), encoding: 'utf8' });
    expect(test.status, test.stdout + test.stderr).toBe(0);
    expect(test.stdout).toContain('SUCCESS');
  });
});
