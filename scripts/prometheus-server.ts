import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';

/** A throwaway Prometheus server for tests. */
export interface PrometheusServer {
  readonly url: string;
  /** An instant query through the HTTP API (`/api/v1/query`): the result vector, or the API's error. */
  query(expr: string): Promise<{ metric: Record<string, string>; value: [number, string] }[]>;
  /** A GET of the HTTP API below `/api/v1/`, parsed (`data` on success). */
  api(path: string): Promise<unknown>;
  /** Everything Prometheus logged (stderr). */
  log(): string;
  stop(): Promise<void>;
}

/** Options of {@link startPrometheus}. */
export interface PrometheusOptions {
  /** `host:port` of the targets to scrape (job `ledger-rx`, path `/metrics`). */
  readonly targets: readonly string[];
  /** Scrape and rule evaluation interval. Default 1 s. */
  readonly intervalSeconds?: number;
  /** Rule files to load (absolute paths). */
  readonly ruleFiles?: readonly string[];
}

/** Whether Debian's `prometheus` binary is on the PATH. */
export function havePrometheus(): boolean {
  return spawnSync('prometheus', ['--version'], { stdio: 'ignore' }).status === 0;
}

/**
 * Starts Prometheus in a temporary directory (its TSDB there) on a free loopback port, scraping `targets`
 * every `intervalSeconds`, and resolves once `/-/ready` answers (rejects if the process exits first). Returns `undefined` when the binary is not
 * installed. `stop()` ends the process and removes the directory.
 */
export async function startPrometheus(options: PrometheusOptions): Promise<PrometheusServer | undefined> {
  if (!havePrometheus()) return undefined;
  const dir = mkdtempSync(join(tmpdir(), 'ledger-rx-prometheus-'));
  const interval = `${options.intervalSeconds ?? 1}s`;
  const config = [
    'global:',
    `  scrape_interval: ${interval}`,
    `  evaluation_interval: ${interval}`,
    ...(options.ruleFiles?.length ? ['rule_files:', ...options.ruleFiles.map((f) => `  - ${JSON.stringify(f)}`)] : []),
    'scrape_configs:',
    '  - job_name: ledger-rx',
    `    scrape_interval: ${interval}`,
    `    scrape_timeout: ${interval}`,
    '    static_configs:',
    `      - targets: ${JSON.stringify(options.targets)}`,
    '',
  ].join('\n');
  writeFileSync(join(dir, 'prometheus.yml'), config);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let log = '';
  const child: ChildProcess = spawn(
    'prometheus',
    [`--config.file=${join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=warn'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  child.stderr?.setEncoding('utf8').on('data', (d: string) => (log += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  // No time budget: wait until it answers, or fail as soon as the process exits (the caller's timeout ends a hang).
  for (;;) {
    const ready = await fetch(`${url}/-/ready`).then((r) => r.ok, () => false);
    if (ready) break;
    if (child.exitCode !== null || child.signalCode !== null) {
      await stop();
      throw new Error(`prometheus exited before it was ready: ${log}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const api = async (path: string): Promise<unknown> => {
    const body = (await (await fetch(`${url}/api/v1/${path}`)).json()) as { status: string; data?: unknown; error?: string };
    if (body.status !== 'success') throw new Error(`prometheus ${path}: ${body.error ?? body.status}`);
    return body.data;
  };
  return {
    url,
    api,
    query: async (expr) => ((await api(`query?query=${encodeURIComponent(expr)}`)) as { result: { metric: Record<string, string>; value: [number, string] }[] }).result,
    log: () => log,
    stop,
  };
}
