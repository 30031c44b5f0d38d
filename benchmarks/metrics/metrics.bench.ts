/**
 * Question: does `--metrics-port` slow the hot path? `ledger-rx tail` and `ledger-rx ingest` read the same
 * backlog with and without it, in one run, interleaved (A B, then B A, …) so that the host's drift hits
 * both alike. With it, the benchmark scrapes `/metrics` every `--scrape-every-ms` (default 5 s; Prometheus'
 * own default is 60 s and 15 s is common, so this is on the pessimistic side) and checks that no scrape
 * counted more updates than exist.
 *
 * Fixture: a sandbox participant in its own process (lib/sandbox-host.ts, buffered mode) holding N
 * transactions of 1 Iou create each, and for ingest a local PostgreSQL with durable commits (as the ingest
 * benchmark). Each run is the real CLI in its own process:
 *
 *     node dist/cli/main.js tail --url <sandbox> --to <offset> --out /dev/null --stats --no-progress --log-level info [--metrics-port 0]
 *     node dist/cli/main.js ingest --pg <url> --url <sandbox> --to <offset> --batch 1000 --schema <fresh> --stats --no-progress --log-level info [--metrics-port 0]
 *
 * Reported:
 * - the CLI's CPU time per update (user + system of the CLI process alone, read from its parent shell's
 *   `cutime`/`cstime` in /proc once it was reaped; the fixed part, a run of one update, subtracted) and
 *   updates/s (its `--stats`) of each variant, and the overhead of metrics as the median of the paired
 *   differences of the rounds, in CPU per update (target ≤ 3 %) and in updates/s. CPU time is the measure of
 *   the hot path's cost: on a shared machine the wall-clock rate moves by ±15 % and more from run to run
 *   with the other processes' load, the CPU a run needs less (but still by ±10–20 % under heavy load);
 * - what metrics cost by the clock, apart from any update: the CPU per second of a caught-up tail (the long
 *   poll; with metrics also the ledger-end poll, the scrapes, the process metrics' sampling), with and
 *   without, and that cost spread over the updates a second brings at the measured rate. Metrics add
 *   nothing per update: the read reports its statuses with or without them.
 *
 * Every figure is the median of the runs with its min–max.
 *
 * Run (after the root `npm run build`; ingest needs PostgreSQL installed):
 *
 *     npm --prefix benchmarks run build && node benchmarks/node_modules/.bench-build/metrics/metrics.bench.js [--quick] [--runs=6] [--transactions=60000] [--scrape-every-ms=5000]
 *
 * Writes benchmarks/results/metrics.json; the figures are in benchmarks/README.md.
 */
import { execFileSync, spawn } from 'node:child_process';
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
  /** CPU time of the CLI process (user + system) per update, in µs, without the fixed part. */
  readonly cpuMicrosPerUpdate: number;
  /** CPU time of a run of one update (process start, set-up, the metrics server when on), in ms. */
  readonly fixedCpuMs: number;
  readonly scrapes: number;
  /** `ledger_rx_elements_total{kind="transaction"}` of the last scrape (with metrics). */
  readonly counted: number | undefined;
}

/** How often the runs with metrics are scraped (`--scrape-every-ms`; Prometheus' own default is 60 s, 15 s is common). */
const scrapeEveryMs = numberOption('scrape-every-ms', 5_000);

const clockTicks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/**
 * The CPU seconds of the children a shell reaped (`cutime` + `cstime`, fields 16 and 17 of its
 * /proc/<pid>/stat line).
 */
function reapedCpuSeconds(statLine: string): number {
  const fields = statLine.slice(statLine.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[13]) + Number(fields[14])) / clockTicks;
}

/**
 * Runs the CLI to its end, under a shell that prints its own /proc stat line once the CLI was reaped (so the
 * CLI's CPU time is known); with metrics, scrapes `/metrics` every `scrapeEveryMs` while it runs.
 */
function runCli(args: readonly string[], metrics: boolean): Promise<{ stats: RunStats; cpuSeconds: number; scrapes: number; counted: number | undefined }> {
  return new Promise((resolve, reject) => {
    const script = '"$0" "$@"; code=$?; cat /proc/$$/stat >&2; exit $code';
    const argv = [cliMain, ...args, ...(metrics ? ['--metrics-port', '0'] : [])];
    const child = spawn('sh', ['-c', script, process.execPath, ...argv], { stdio: ['ignore', 'ignore', 'pipe'] });
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
          timer = setInterval(() => void scrape(), scrapeEveryMs);
        }
      }
    });
    child.on('close', (code) => {
      clearInterval(timer);
      const lines = err.trim().split('\n');
      const line = lines.reverse().find((l) => l.startsWith('{"count"'));
      const stat = lines.find((l) => /^\d+ \(sh\) /.test(l));
      if (code !== 0 || line === undefined || stat === undefined) {
        reject(new Error(`${args[0]} exited with ${code}:\n${err.slice(-3000)}`));
        return;
      }
      resolve({ stats: JSON.parse(line) as RunStats, cpuSeconds: reapedCpuSeconds(stat), scrapes, counted });
    });
  });
}

/** CPU seconds (user + system) of a running process, from /proc/<pid>/stat. */
function processCpuSeconds(pid: number): number {
  const line = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = line.slice(line.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / clockTicks;
}

/**
 * The CPU a caught-up `tail` spends per second while nothing new arrives (the long poll), scraped as the
 * runs are with metrics: what metrics cost by the clock (the ledger-end poll, the scrape, the process
 * metrics' sampling), apart from any update.
 */
function idleCpuMsPerSecond(sandboxUrl: string, metrics: boolean, seconds: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const argv = [cliMain, 'tail', '--url', sandboxUrl, '--from', 'end', '--out', '/dev/null', '--no-progress', '--log-level', 'info', ...(metrics ? ['--metrics-port', '0'] : [])];
    const child = spawn(process.execPath, argv, { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
    child.once('exit', (code, signal) => {
      if (signal !== 'SIGTERM' && code !== 0) reject(new Error(`idle tail exited with ${code ?? signal}: ${err.slice(-2000)}`));
    });
    const pid = child.pid as number;
    void (async () => {
      // start-up done: the tail is caught up and long-polling
      const deadline = Date.now() + 60_000;
      while (!err.includes('caught up')) {
        if (Date.now() > deadline) throw new Error(`idle tail did not catch up: ${err.slice(-2000)}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      const line = err.split('\n').find((l) => l.includes('serving /metrics'));
      const url = line ? (JSON.parse(line) as { url: string }).url : undefined;
      await new Promise((r) => setTimeout(r, 1_000));
      const before = processCpuSeconds(pid);
      for (let i = 0; i < seconds; i++) {
        await new Promise((r) => setTimeout(r, 1_000));
        if (url && ((i + 1) * 1_000) % scrapeEveryMs === 0) await (await fetch(`${url}/metrics`)).text();
      }
      const after = processCpuSeconds(pid);
      child.kill('SIGTERM');
      resolve(((after - before) * 1000) / seconds);
    })().catch(reject);
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
  const first = String(offsets[0]);
  let schemas = 0;
  const read = async (command: 'tail' | 'ingest', upTo: string, metrics: boolean) => {
    if (command === 'tail') return runCli(['tail', '--url', sandbox.url, '--to', upTo, '--out', '/dev/null', '--stats', '--no-progress', '--log-level', 'info'], metrics);
    const schema = `bench_metrics_${schemas++}`;
    const result = await runCli(
      ['ingest', '--pg', server.url, '--url', sandbox.url, '--to', upTo, '--batch', '1000', '--schema', schema, '--stream-name', 'bench', '--stats', '--no-progress', '--log-level', 'info'],
      metrics,
    );
    await pool.query(`DROP SCHEMA ${schema} CASCADE`);
    return result;
  };
  const samples: Sample[] = [];
  const idle: { metrics: boolean; round: number; cpuMsPerSecond: number }[] = [];
  try {
    for (let round = 0; round < runs; round++) {
      const order = round % 2 === 0 ? [false, true] : [true, false];
      for (const metrics of order) {
        const cpuMsPerSecond = await idleCpuMsPerSecond(sandbox.url, metrics, m === 'quick' ? 5 : 10);
        idle.push({ metrics, round, cpuMsPerSecond });
        log(`metrics round ${round + 1}/${runs}: caught-up tail ${metrics ? 'with' : 'without'} metrics: ${cpuMsPerSecond.toFixed(2)} ms CPU per second`);
      }
      for (const command of ['tail', 'ingest'] as const) {
        for (const metrics of order) {
          // the fixed part (process start, one update, with or without the metrics server), then the backlog
          const [setup, whole] = [await read(command, first, metrics), await read(command, to, metrics)];
          const updates = whole.stats.count - setup.stats.count;
          const cpu = ((whole.cpuSeconds - setup.cpuSeconds) * 1e6) / updates;
          const rate = whole.stats.count / whole.stats.seconds;
          samples.push({ command, metrics, round, updatesPerSecond: rate, cpuMicrosPerUpdate: cpu, fixedCpuMs: setup.cpuSeconds * 1000, scrapes: whole.scrapes, counted: whole.counted });
          log(`metrics round ${round + 1}/${runs}: ${command} ${metrics ? 'with' : 'without'} metrics: ${rate.toFixed(0)} updates/s, ${cpu.toFixed(1)} µs CPU per update, ${(setup.cpuSeconds * 1000).toFixed(0)} ms CPU fixed (${whole.scrapes} scrapes)`);
        }
      }
    }
  } finally {
    await sandbox.stop();
    await pool.end();
    server.stop();
  }

  const rows: Row[] = [];
  const idleOff = figure(idle.filter((s) => !s.metrics).map((s) => s.cpuMsPerSecond));
  const idleOn = figure(idle.filter((s) => s.metrics).map((s) => s.cpuMsPerSecond));
  const clockCost = figure(idle.filter((s) => !s.metrics).map((s) => (idle.find((o) => o.metrics && o.round === s.round) as { cpuMsPerSecond: number }).cpuMsPerSecond - s.cpuMsPerSecond));
  const idleGroup = '--metrics-port, a caught-up tail (no updates)';
  rows.push({ group: idleGroup, subject: 'ledger-rx tail --from end', metric: 'ms CPU per second', value: idleOff, digits: 2 });
  rows.push({ group: idleGroup, subject: `ledger-rx tail --from end --metrics-port (scraped every ${scrapeEveryMs / 1000} s)`, metric: 'ms CPU per second', value: idleOn, digits: 2 });
  rows.push({ group: idleGroup, subject: 'cost of metrics by the clock (paired rounds)', metric: 'ms CPU per second', value: clockCost, digits: 2 });
  for (const command of ['tail', 'ingest'] as const) {
    const group = `--metrics-port, ${command} of ${transactions.toLocaleString('en-US')} updates`;
    const off = samples.filter((s) => s.command === command && !s.metrics);
    const on = samples.filter((s) => s.command === command && s.metrics);
    const scrapes = `${figure(on.map((s) => s.scrapes)).median} scrapes per run`;
    rows.push({ group, subject: `ledger-rx ${command}`, metric: 'µs CPU per update', value: figure(off.map((s) => s.cpuMicrosPerUpdate)), digits: 1 });
    rows.push({ group, subject: `ledger-rx ${command} --metrics-port (scraped every ${scrapeEveryMs / 1000} s)`, metric: 'µs CPU per update', value: figure(on.map((s) => s.cpuMicrosPerUpdate)), digits: 1, note: scrapes });
    rows.push({ group, subject: `ledger-rx ${command}, fixed part (start, set-up, 1 update)`, metric: 'ms CPU', value: figure(off.map((s) => s.fixedCpuMs)) });
    rows.push({ group, subject: `ledger-rx ${command} --metrics-port, fixed part`, metric: 'ms CPU', value: figure(on.map((s) => s.fixedCpuMs)), note: 'prom-client loaded, the server started' });
    rows.push({ group, subject: `ledger-rx ${command}`, metric: 'updates/s', value: figure(off.map((s) => s.updatesPerSecond)) });
    rows.push({ group, subject: `ledger-rx ${command} --metrics-port (scraped every ${scrapeEveryMs / 1000} s)`, metric: 'updates/s', value: figure(on.map((s) => s.updatesPerSecond)), note: scrapes });
    // the overhead per round (same round, back to back), then the median over the rounds
    const twin = (s: Sample) => on.find((o) => o.round === s.round) as Sample;
    const cpu = figure(off.map((s) => ((twin(s).cpuMicrosPerUpdate - s.cpuMicrosPerUpdate) / s.cpuMicrosPerUpdate) * 100));
    rows.push({ group, subject: 'overhead of metrics (paired rounds)', metric: '% more CPU per update', value: cpu, digits: 1, check: atMost(cpu.median, 3, '%', 1) });
    // the clock's cost spread over the updates of a second, against what a second of updates costs
    const derived = (clockCost.median / 1000) / ((figure(on.map((s) => s.updatesPerSecond)).median * figure(off.map((s) => s.cpuMicrosPerUpdate)).median) / 1e6) * 100;
    rows.push({ group, subject: 'overhead from the cost by the clock, at this rate', metric: '% more CPU', value: figure([derived]), digits: 2, note: 'no per-update cost: the read reports statuses with or without metrics' });
    const rate = figure(off.map((s) => ((s.updatesPerSecond - twin(s).updatesPerSecond) / s.updatesPerSecond) * 100));
    rows.push({ group, subject: 'overhead of metrics (paired rounds)', metric: '% fewer updates/s', value: rate, digits: 1, note: 'wall clock: moved by the machine load' });
    const last = on.filter((s) => s.counted !== undefined);
    if (last.some((s) => (s.counted as number) > transactions)) throw new Error(`metrics: a scrape counted more transactions than exist: ${JSON.stringify(last)}`);
  }
  const file = run.finish({
    name: 'metrics',
    question: `the cost of --metrics-port on tail and ingest (scraped every ${scrapeEveryMs / 1000} s), interleaved in one run`,
    mode: m,
    fixture: { transactions, runs, postgres: server.version, durable: true, sandbox: 'buffered (default), 200-element cap', batch: 1000, scrapeEveryMs },
    rows,
    extra: { samples, idle },
  });
  log(`metrics: wrote ${file}`);
}

await main();
