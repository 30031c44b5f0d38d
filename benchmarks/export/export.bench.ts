/**
 * Question: how fast does `ledger-rx export` write the ledger to Parquet (target: >= 30,000 events/s of
 * 1-event transactions on this machine), how many bytes per event do its files take against NDJSON and
 * NDJSON+zstd, and how long does DuckDB take to query one day's partition of the result?
 *
 * Fixture: a sandbox participant in its own process (lib/sandbox-host.ts, default buffered mode) holding N
 * transactions of exactly 1 Iou create each. Each run is the real CLI in its own process, into a fresh
 * directory, in rounds:
 *
 *     node dist/cli/main.js export --out <fresh> --url <sandbox> --to <last> --stats --no-progress [--format ndjson-zstd]
 *     node dist/cli/main.js tail --url <sandbox> --to <last> > <file>          (the plain NDJSON, for the bytes)
 *
 * Reported: events/s from the CLI's `--stats` (its own clock: start to the last commit, files fsynced), the
 * CLI's CPU time per event (user + system, at its exit: less sensitive to other load than the rate) and peak
 * RSS, beside a `tail` of the same range to a file (the read alone); bytes per event of the Parquet files (both tables), of
 * the ndjson-zstd files, of the NDJSON `tail` prints and of that NDJSON in zstd (level 3); DuckDB
 * (`@duckdb/node-api`, in this process) running an aggregate over one record date's partition of `events`
 * (sum of the Numeric amounts as DECIMAL(38,10) per owner), median of 5 after one warm-up.
 *
 *     npm --prefix benchmarks run build && node benchmarks/node_modules/.bench-build/export/export.bench.js [--transactions=100000] [--runs=3]
 *
 * Figures: docs/analytics-export.md.
 */
import { spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { Encoder } from '@toondepauw/node-zstd';
import { numberOption } from '../lib/args.js';
import { buildDir, cliMain } from '../lib/paths.js';
import { cpuAtExitFlags, cpuAtExitOf } from '../lib/cpu.js';
import { MiB, startSandboxProcess } from '../lib/proc.js';

interface Stats {
  readonly count: number;
  readonly seconds: number;
  readonly updatesPerSecond: number;
}

/** Runs the CLI; resolves with its `--stats`, peak RSS (bytes), CPU time (user + system, ms) and wall time (ms). */
function runCli(args: readonly string[], stdoutFile?: string): Promise<{ stats: Stats | undefined; peakRss: number; cpuMs: number; wallMs: number }> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, [...cpuAtExitFlags, cliMain, ...args], { stdio: ['ignore', stdoutFile === undefined ? 'ignore' : 'pipe', 'pipe'] });
    if (stdoutFile !== undefined) child.stdout?.pipe(createWriteStream(stdoutFile));
    let err = '';
    child.stderr?.setEncoding('utf8').on('data', (c: string) => (err += c));
    child.on('error', reject);
    child.on('close', (code) => {
      const wallMs = performance.now() - start;
      if (code !== 0) return reject(new Error(`exit ${code}: ${err.slice(-2000)}`));
      const statsLine = err.trim().split('\n').find((l) => l.startsWith('{"count"'));
      const cpu = cpuAtExitOf(err);
      resolve({ stats: statsLine === undefined ? undefined : (JSON.parse(statsLine) as Stats), peakRss: (cpu?.maxRssKiB ?? 0) * 1024, cpuMs: (cpu?.userMs ?? 0) + (cpu?.systemMs ?? 0), wallMs });
    });
  });
}

function bytesUnder(dir: string, suffix: string): number {
  return (readdirSync(dir, { recursive: true }) as string[]).filter((f) => f.endsWith(suffix)).reduce((sum, f) => sum + statSync(join(dir, f)).size, 0);
}

const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const range = (xs: readonly number[], digits = 0) => `${median(xs).toFixed(digits)} (${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)})`;

async function main(): Promise<void> {
  const transactions = numberOption('transactions', 100_000);
  const runs = numberOption('runs', 3);
  const work = mkdtempSync(join(tmpdir(), 'ledger-rx-export-bench-'));
  const offsetsFile = join(work, 'offsets.json');
  const before = loadavg();
  const sandbox = await startSandboxProcess([`--transactions=${transactions}`, '--events=1', `--offsets-file=${offsetsFile}`], { script: join(buildDir, 'lib', 'sandbox-host.js') });
  try {
    const offsets = JSON.parse(readFileSync(offsetsFile, 'utf8')) as number[];
    const last = String(offsets.at(-1));
    const common = ['--url', sandbox.url, '--to', last, '--stats', '--no-progress', '--log-level', 'warn'];
    const parquet: { rate: number; rss: number; bytes: number; cpuUs: number }[] = [];
    const zst: { rate: number; rss: number; bytes: number; cpuUs: number }[] = [];
    const tails: { rate: number; rss: number; cpuUs: number }[] = [];
    let dir = '';
    for (let run = 0; run < runs; run++) {
      for (const format of run % 2 === 0 ? ['parquet', 'ndjson-zstd'] : ['ndjson-zstd', 'parquet']) {
        const out = join(work, `${format}-${run}`);
        const r = await runCli(['export', '--out', out, '--format', format, ...common]);
        const stats = r.stats as Stats;
        if (stats.count !== transactions) throw new Error(`exported ${stats.count} of ${transactions}`);
        const bytes = format === 'parquet' ? bytesUnder(out, '.parquet') : bytesUnder(out, '.ndjson.zst');
        (format === 'parquet' ? parquet : zst).push({ rate: stats.updatesPerSecond, rss: r.peakRss / MiB, bytes: bytes / transactions, cpuUs: (r.cpuMs * 1000) / transactions });
        if (format === 'parquet' && dir === '') dir = out;
        else rmSync(out, { recursive: true, force: true });
      }
      // the read alone, for comparison: tail of the same range to a file (wall time of the process)
      const t = await runCli(['tail', '--url', sandbox.url, '--to', last, '--no-progress', '--log-level', 'warn'], join(work, 'tail.ndjson'));
      tails.push({ rate: transactions / (t.wallMs / 1000), rss: t.peakRss / MiB, cpuUs: (t.cpuMs * 1000) / transactions });
    }
    const ndjsonFile = join(work, 'tail.ndjson');
    const ndjson = readFileSync(ndjsonFile);
    const ndjsonZstd = new Encoder(3).encodeSync(ndjson).length;
    writeFileSync(join(work, 'done'), '');

    const instance = await DuckDBInstance.create(':memory:');
    const con = await instance.connect();
    const days = (await con.runAndReadAll(`SELECT DISTINCT strftime(record_date, '%Y-%m-%d') AS d FROM read_parquet('${dir}/events/**/*.parquet', hive_partitioning = true) ORDER BY d`)).getRowObjectsJS();
    const day = String(days.at(-1)?.['d']);
    const sql = `SELECT payload->>'owner' AS owner, count(*) AS n, sum(CAST(payload->>'amount' AS DECIMAL(38,10))) AS total FROM read_parquet('${dir}/events/**/*.parquet', hive_partitioning = true) WHERE record_date = DATE '${day}' GROUP BY ALL`;
    const times: number[] = [];
    for (let i = 0; i < 6; i++) {
      const start = performance.now();
      await con.runAndReadAll(sql);
      if (i > 0) times.push(performance.now() - start);
    }
    con.closeSync();
    instance.closeSync();
    const after = loadavg();
    console.log(`${transactions} transactions of 1 event, ${runs} runs, median (min–max); load before ${before.map((l) => l.toFixed(2)).join(', ')} → after ${after.map((l) => l.toFixed(2)).join(', ')}`);
    console.log('| run | events/s | CLI CPU µs/event | CLI peak RSS MiB | bytes/event |');
    console.log('|---|---:|---:|---:|---:|');
    console.log(`| export parquet (updates + events) | ${range(parquet.map((p) => p.rate))} | ${range(parquet.map((p) => p.cpuUs))} | ${range(parquet.map((p) => p.rss))} | ${median(parquet.map((p) => p.bytes)).toFixed(1)} |`);
    console.log(`| export ndjson-zstd | ${range(zst.map((p) => p.rate))} | ${range(zst.map((p) => p.cpuUs))} | ${range(zst.map((p) => p.rss))} | ${median(zst.map((p) => p.bytes)).toFixed(1)} |`);
    console.log(`| tail to a file (the read alone; wall clock incl. start-up) | ${range(tails.map((p) => p.rate))} | ${range(tails.map((p) => p.cpuUs))} | ${range(tails.map((p) => p.rss))} | ${(ndjson.length / transactions).toFixed(1)} (NDJSON) |`);
    console.log(`| NDJSON + zstd level 3 (one stream) | | | | ${(ndjsonZstd / transactions).toFixed(1)} |`);
    console.log(`DuckDB, one day's partition (${day}, ${days.length} day(s) in all): ${range(times, 1)} ms — ${sql.replace(dir, 'DIR')}`);
  } finally {
    await sandbox.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
