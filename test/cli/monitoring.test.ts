import { createServer } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMonitoringOptions } from '../../src/cli/monitoring/add-monitoring-options.js';
import { readMonitoringOptions } from '../../src/cli/monitoring/read-monitoring-options.js';
import { UsageError } from '../../src/cli/options/usage-error.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { findNatsServer, startNatsServer, type NatsServer } from '../../scripts/nats-server.js';
import { parsePrometheusText } from '../support/prometheus-text.js';
import { spawnCli } from '../support/spawn-cli.js';
import { runInProcess } from './support/run-in-process.js';

function flags(argv: string[]) {
  const command = addMonitoringOptions(new Command('x')).exitOverride().action(() => undefined);
  command.parse(argv, { from: 'user' });
  return readMonitoringOptions(command.opts());
}

/** The URL the CLI logged for its metrics server. */
async function metricsUrlOf(stderr: () => string): Promise<string> {
  return until(async () => {
    const line = stderr().split('\n').find((l) => l.includes('serving /metrics'));
    return line ? (JSON.parse(line) as { url: string }).url : undefined;
  });
}

async function until<T>(probe: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe().catch(() => undefined);
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('--metrics-port, --metrics-host, --stall-after', () => {
  it('default to no server on 127.0.0.1 with a 60 s stall time, and reject bad values with exit 2', () => {
    expect(flags([])).toEqual({ metricsPort: undefined, metricsHost: '127.0.0.1', stallAfterSeconds: 60 });
    expect(flags(['--metrics-port', '9464', '--metrics-host', '0.0.0.0', '--stall-after', '5'])).toEqual({ metricsPort: 9464, metricsHost: '0.0.0.0', stallAfterSeconds: 5 });
    for (const bad of [['--metrics-port', '65536'], ['--metrics-port', '-1'], ['--metrics-port', 'x'], ['--metrics-host', ' '], ['--stall-after', '0']]) {
      expect(() => flags(bad), bad.join(' ')).toThrow(UsageError);
    }
  });
});

describe('tail with --metrics-port (a spawned CLI serving the metrics; the refused port in process)', () => {
  let sandbox: Sandbox;
  let dir: string;
  beforeAll(async () => {
    sandbox = await startSandbox({ seed: 40, generate: 50 });
    dir = mkdtempSync(join(tmpdir(), 'ledger-rx-monitoring-'));
  });
  afterAll(async () => {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves /healthz, /readyz and /metrics while tailing, checkpoint saves included, and stops with the tail', async () => {
    const cli = spawnCli(['tail', '--url', sandbox.url, '--checkpoint', join(dir, 'cp.json'), '--checkpoint-every-ms', '100', '--metrics-port', '0', '--log-level', 'info', '--out', join(dir, 'out.ndjson')]);
    const url = await metricsUrlOf(() => cli.stderr());
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    const ready = await until(async () => {
      const r = await fetch(`${url}/readyz`);
      return r.status === 200 ? ((await r.json()) as { reason: string }) : undefined;
    });
    expect(['caught-up', 'progressing']).toContain(ready.reason);
    const metrics = await until(async () => {
      const x = parsePrometheusText(await (await fetch(`${url}/metrics`)).text());
      return x.value('ledger_rx_checkpoint_commits_total', { outcome: 'ok' }) > 0 && x.value('ledger_rx_elements_total', { kind: 'transaction' }) > 40 ? x : undefined;
    });
    expect(metrics.value('ledger_rx_offset', { stream: 'default' })).toBeGreaterThan(0);
    expect(metrics.value('ledger_rx_ready')).toBe(1);
    expect(metrics.types.get('process_cpu_seconds_total')).toBe('counter');
    cli.child.kill('SIGTERM');
    expect((await cli.exited).code, cli.stderr()).toBe(0);
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();
  });

  it('exits 1 naming the address when the metrics port is taken, before reading anything', async () => {
    const taken = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
    const port = (taken.address() as { port: number }).port;
    try {
      const result = await runInProcess(['tail', '--url', sandbox.url, '--to', 'end', '--metrics-port', String(port), '--log-level', 'warn']);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`cannot serve metrics on 127.0.0.1:${port}`);
      expect(result.stdout).toBe('');
    } finally {
      await new Promise((r) => taken.close(r));
    }
  });
});

describe.runIf(findNatsServer() !== undefined || process.env['CI'])('publish with --metrics-port (spawned CLI, nats-server)', () => {
  it('counts what it publishes and each acknowledged batch as a commit, labelled with the JetStream stream', async () => {
    const nats = (await startNatsServer()) as NatsServer;
    const sandbox = await startSandbox({ seed: 60 });
    try {
      const cli = spawnCli(['publish', '--nats', nats.url, '--stream', 'METRICS', '--subject-prefix', 'ledger.metrics', '--url', sandbox.url, '--metrics-port', '0', '--log-level', 'info']);
      const url = await metricsUrlOf(() => cli.stderr());
      const x = await until(async () => {
        const m = parsePrometheusText(await (await fetch(`${url}/metrics`)).text());
        return m.value('ledger_rx_offset', { stream: 'METRICS' }) >= sandbox.ledgerEnd() && m.value('ledger_rx_checkpoint_commits_total', { stream: 'METRICS', outcome: 'ok' }) > 0 ? m : undefined;
      });
      expect(x.value('ledger_rx_elements_total', { stream: 'METRICS', kind: 'transaction' })).toBeGreaterThan(0);
      expect(x.value('ledger_rx_ingest_batch_elements_count', { stream: 'METRICS' })).toBeGreaterThan(0);
      cli.child.kill('SIGTERM');
      expect((await cli.exited).code, cli.stderr()).toBe(0);
    } finally {
      await sandbox.close();
      await nats.stop();
    }
  });
});
