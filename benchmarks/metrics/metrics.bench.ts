/**
 * Question: does `--metrics-port` slow the hot path? `ledger-rx tail` and `ledger-rx ingest` read the same
 * backlog with and without it, in one run, interleaved (A B, then B A, …) so that the host's drift hits
 * both alike. With it, the benchmark scrapes `/metrics` every second during the read (Prometheus usually
 * scrapes every 15–60 s: this is the pessimistic case), and checks the scrape counted every update.
 *
 * Fixture: a sandbox participant in its own process (lib/sandbox-host.ts, buffered mode) holding N
 * transactions of 1 Iou create each, and for ingest a local PostgreSQL with durable commits (as the ingest
 * benchmark). Each run is the real CLI in its own process:
 *
 *     node dist/cli/main.js tail --url <sandbox> --to <offset> --out /dev/null --stats --no-progress --log-level info [--metrics-port 0]
 *     node dist/cli/main.js ingest --pg <url> --url <sandbox> --to <offset> --batch 1000 --schema <fresh> --stats --no-progress --log-level info [--metrics-port 0]
 *
 * Reported: updates/s (from the CLI's `--stats`) of each variant, and the overhead of metrics as the
 * median of the paired differences of the rounds (target ≤ 3 %). Every figure is the median of the runs
 * with its min–max.
 *
 * Run (after the root `npm run build`; ingest needs PostgreSQL installed):
 *
 *     npm --prefix benchmarks run build && node benchmarks/node_modules/.bench-build/metrics/metrics.bench.js [--quick] [--runs=5] [--transactions=60000]
 *
 * Writes benchmarks/results/metrics.json; the figures are in benchmarks/README.md.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { log, mode, numberOption } from '../lib/args.js';
import { startBenchRun } from '../lib/bench-run.js';
import { buildDir, cliMain, dataDir } from '../lib/paths.js';
import { startPostgres } from '../lib/postgres.js';
import { startSandboxProcess } from '../lib/proc.js';
import { atMost, figure, type Row } from '../lib/report.js';

interface RunStats {
  readonly count: number;
  readonly seconds: number;
  readonly updatesPerSecond: number;
}

interface Sample {
  readonly command: 'tail' | 'ingest';
  readonly metrics: boolean;
  readonly round: number;
  readonly updatesPerSecond: number;
  readonly scrapes: number;
  /** `ledger_rx_elements_total{kind="transaction"}` of the last scrape (with metrics). */
  readonly counted: number | undefined;
}

/** Runs the CLI to its end; with metrics, scrapes `/metrics` every second while it runs. */
function runCli(args: readonly string[], metrics: boolean): Promise<{ stats: RunStats; scrapes: number; counted: number | undefined }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliMain, ...args, ...(metrics ? ['--metrics-port', '0'] : [])], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    let url: string | undefined;
    let scrapes = 0;
    let counted: number | undefined;
    let timer: ReturnType<typeof setInterval> | undefined;
    const scrape = async () => {
      if (url === undefined) return;
      try {
        const text = await (await fetch(`${url}/metrics`)).text();
        scrapes++;
        const m = /^ledger_rx_elements_total\{[^}]*kind="transaction"[^}]*\} (\d+)/m.exec(text);
        if (m) counted = Number(m[1]);
      } catch {
        // the run ended between two scrapes
      }
    };
    child.stderr.setEncoding('utf8').on('data', (c: string) => {
      err += c;
      if (metrics && url === undefined) {
        const line = err.split('\n').find((l) => l.includes('serving /metrics'));
        if (line) {
          url = (JSON.parse(line) as { url: string }).url;
          timer = setInterval(() => void scrape(), 1_000);
        }
      }
    });
    child.on('close', (code) => {
      clearInterval(timer);
      const line = err.trim().split('\n').reverse().find((l) => l.startsWith('{"count"'));
      if (code !== 0 || line === undefined) {
        reject(new Error(`${args[0]} exited with ${code}:\n${err.slice(-3000)}`));
        return;
      }
      resolve({ stats: JSON.parse(line) as RunStats, scrapes, counted });
    });
  });
}

async function main(): Promise<void> {
  const run = startBenchRun();
  const m = mode();
  const runs = numberOption('runs', m === 'quick' ? 2 : 5);
  const transactions = numberOption('transactions', m === 'quick' ? 8_000 : 60_000);
  const server = await startPostgres({ durable: true });
  if (!server) throw new Error('metrics: PostgreSQL is not installed (apt-get install postgresql)');
  const pool = new pg.Pool({ connectionString: server.url, max: 2 });
  mkdirSync(dataDir, { recursive: true });
  const offsetsFile = join(dataDir, 'metrics-offsets.json');
  log(`metrics: seeding a sandbox with ${transactions} 1-event transactions`);
  const sandbox = await startSandboxProcess([`--transactions=${transactions}`, '--events=1', `--offsets-file=${offsetsFile}`], {
    script: join(buildDir, 'lib', 'sandbox-host.js'),
    readyTimeoutMs: 600_000,
  });
  const offsets = JSON.parse(readFileSync(offsetsFile, 'utf8')) as number[];
  const to = String(offsets[offsets.length - 1]);
  const samples: Sample[] = [];
  let schemas = 0;
  try {
    for (let round = 0; round < runs; round++) {
      const order = round % 2 === 0 ? [false, true] : [true, false];
      for (const metrics of order) {
        const tail = await runCli(['tail', '--url', sandbox.url, '--to', to, '--out', '/dev/null', '--stats', '--no-progress', '--log-level', 'info'], metrics);
        samples.push({ command: 'tail', metrics, round, updatesPerSecond: tail.stats.count / tail.stats.seconds, scrapes: tail.scrapes, counted: tail.counted });
        log(`metrics round ${round + 1}/${runs}: tail ${metrics ? 'with' : 'without'} metrics: ${(tail.stats.count / tail.stats.seconds).toFixed(0)} updates/s (${tail.scrapes} scrapes)`);
      }
      for (const metrics of order) {
        const schema = `bench_metrics_${schemas++}`;
        const ingest = await runCli(
          ['ingest', '--pg', server.url, '--url', sandbox.url, '--to', to, '--batch', '1000', '--schema', schema, '--stream-name', 'bench', '--stats', '--no-progress', '--log-level', 'info'],
          metrics,
        );
        await pool.query(`DROP SCHEMA ${schema} CASCADE`);
        samples.push({ command: 'ingest', metrics, round, updatesPerSecond: ingest.stats.count / ingest.stats.seconds, scrapes: ingest.scrapes, counted: ingest.counted });
        log(`metrics round ${round + 1}/${runs}: ingest ${metrics ? 'with' : 'without'} metrics: ${(ingest.stats.count / ingest.stats.seconds).toFixed(0)} updates/s (${ingest.scrapes} scrapes)`);
      }
    }
  } finally {
    await sandbox.stop();
    await pool.end();
    server.stop();
  }

  const rows: Row[] = [];
  for (const command of ['tail', 'ingest'] as const) {
    const group = `--metrics-port, ${command} of ${transactions.toLocaleString('en-US')} updates`;
    const off = samples.filter((s) => s.command === command && !s.metrics);
    const on = samples.filter((s) => s.command === command && s.metrics);
    rows.push({ group, subject: `ledger-rx ${command}`, metric: 'updates/s', value: figure(off.map((s) => s.updatesPerSecond)) });
    rows.push({
      group,
      subject: `ledger-rx ${command} --metrics-port (scraped every second)`,
      metric: 'updates/s',
      value: figure(on.map((s) => s.updatesPerSecond)),
      note: `${figure(on.map((s) => s.scrapes)).median} scrapes per run`,
    });
    // the overhead per round (same round, back to back), then the median over the rounds
    const paired = off.map((s) => {
      const twin = on.find((o) => o.round === s.round) as Sample;
      return ((s.updatesPerSecond - twin.updatesPerSecond) / s.updatesPerSecond) * 100;
    });
    const overhead = figure(paired);
    rows.push({ group, subject: 'overhead of metrics (paired rounds)', metric: '% slower', value: overhead, digits: 1, check: atMost(overhead.median, 3, '%', 1) });
    const last = on.filter((s) => s.counted !== undefined);
    if (last.some((s) => (s.counted as number) > transactions)) throw new Error(`metrics: a scrape counted more transactions than exist: ${JSON.stringify(last)}`);
  }
  const file = run.finish({
    name: 'metrics',
    question: 'the cost of --metrics-port on tail and ingest (scraped every second), interleaved in one run',
    mode: m,
    fixture: { transactions, runs, postgres: server.version, durable: true, sandbox: 'buffered (default), 200-element cap', batch: 1000, scrapeEveryMs: 1000 },
    rows,
    extra: { samples },
  });
  log(`metrics: wrote ${file}`);
}

await main();
