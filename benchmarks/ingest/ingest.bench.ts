/**
 * Question: how fast does `ledger-rx ingest` load updates into PostgreSQL, exactly once, and what does the
 * per-batch transaction (rows + checkpoint in one commit) cost against the batch size?
 *
 * Fixture: a local PostgreSQL (initdb'ed into a temp dir, run as the `postgres` user; fsync and
 * synchronous_commit ON, i.e. durable commits) and a sandbox participant in its own process
 * (lib/sandbox-host.ts, default buffered mode) holding N transactions of exactly 1 (or 5) Iou creates each.
 * Each run is the real CLI in its own process, into a fresh schema:
 *
 *     node dist/cli/main.js ingest --pg <url> --url <sandbox> --to <offset> --batch <n> --schema <fresh> --stats --no-progress
 *
 * Reported: updates/s and rows/s (rows = updates + created_events + active_contracts), from the CLI's
 * `--stats` (its own clock: start to last commit, including migrations); for the batch sweep (1-event
 * transactions, batch 1, 10, 100, 1000) also the time per committed batch, without the fixed part of a run
 * (measured by ingesting a single update), and the fixed cost of one exactly-once transaction (BEGIN, lock
 * and compare the checkpoint row, the multi-row inserts, the checkpoint upsert, COMMIT with fsync) estimated
 * from batches 1 and 10. Every figure is the median of the runs with its min–max.
 *
 * Run (after the root `npm run build`; needs PostgreSQL installed, e.g. `apt-get install postgresql`):
 *
 *     npm --prefix benchmarks run build && node benchmarks/node_modules/.bench-build/ingest/ingest.bench.js [--quick] [--runs=3] [--durable=false] [--cli-node-args="--cpu-prof --cpu-prof-dir=DIR"]
 *
 * Writes benchmarks/results/ingest.json; the full table is in benchmarks/README.md.
 *
 * Latest figures: benchmarks/results/ingest.json and the table in benchmarks/README.md (not repeated here,
 * so that they cannot go stale).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { log, mode, numberOption, option } from '../lib/args.js';
import { buildDir, cliMain, dataDir } from '../lib/paths.js';
import { startPostgres } from '../lib/postgres.js';
import { startSandboxProcess } from '../lib/proc.js';
import { atLeastAbsolute, figure, type Row } from '../lib/report.js';
import { startBenchRun } from '../lib/bench-run.js';

/** `--stats` of the CLI. */
interface RunStats {
  readonly count: number;
  readonly bytes: number;
  readonly seconds: number;
  readonly updatesPerSecond: number;
}

interface IngestSample {
  /** 0 for the setup runs (one update: start-up, migrations, lock, one commit). */
  readonly events: number;
  readonly batch: number;
  readonly updates: number;
  readonly rows: number;
  readonly seconds: number;
  readonly wallSeconds: number;
}

/** Node flags for the measured CLI, e.g. `--cli-node-args="--cpu-prof --cpu-prof-dir=/tmp/p"` to profile each run. */
const cliNodeArgs = option('cli-node-args', '').split(' ').filter((a) => a !== '');

function runIngest(args: readonly string[]): Promise<{ stats: RunStats; wallSeconds: number }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [...cliNodeArgs, cliMain, 'ingest', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
    child.on('close', (code) => {
      const wallSeconds = (performance.now() - t0) / 1000;
      const line = err.trim().split('\n').reverse().find((l) => l.startsWith('{"count"'));
      if (code !== 0 || line === undefined) {
        reject(new Error(`ingest exited with ${code}:\n${err.slice(-3000)}`));
        return;
      }
      resolve({ stats: JSON.parse(line) as RunStats, wallSeconds });
    });
  });
}

async function main(): Promise<void> {
  const run = startBenchRun();
  const m = mode();
  const runs = numberOption('runs', m === 'quick' ? 1 : 3);
  const durable = option('durable', 'true') !== 'false';
  const oneEvent = numberOption('one-event', m === 'quick' ? 10_000 : 100_000);
  const fiveEvent = numberOption('five-event', m === 'quick' ? 4_000 : 40_000);
  // batch size → number of updates ingested at that size (small batches take longer per update)
  const sweep: [number, number][] = m === 'quick' ? [[1, 500], [10, 2_000], [100, 10_000], [1000, oneEvent]] : [[1, 2_000], [10, 10_000], [100, 50_000], [1000, oneEvent]];

  const server = await startPostgres({ durable });
  if (!server) throw new Error('ingest: PostgreSQL is not installed (apt-get install postgresql)');
  log(`ingest: ${server.version} at ${server.url} (${durable ? 'durable: fsync and synchronous_commit on' : 'fsync off'})`);
  const pool = new pg.Pool({ connectionString: server.url, max: 2 });
  const samples: IngestSample[] = [];
  let schemaCounter = 0;
  mkdirSync(dataDir, { recursive: true });
  try {
    for (const events of [1, 5]) {
      const transactions = events === 1 ? oneEvent : fiveEvent;
      const offsetsFile = join(dataDir, `ingest-offsets-${events}.json`);
      log(`ingest: seeding a sandbox with ${transactions} transactions of ${events} event(s)`);
      const t0 = performance.now();
      const sandbox = await startSandboxProcess([`--transactions=${transactions}`, `--events=${events}`, `--offsets-file=${offsetsFile}`], {
        script: join(buildDir, 'lib', 'sandbox-host.js'),
        readyTimeoutMs: 600_000,
      });
      log(`ingest: sandbox ready in ${((performance.now() - t0) / 1000).toFixed(1)} s at ${sandbox.url}`);
      const offsets = JSON.parse(readFileSync(offsetsFile, 'utf8')) as number[];
      const plan: [number, number][] = events === 1 ? sweep : [[1000, fiveEvent]];
      try {
        for (let r = 0; r < runs; r++) {
          // the fixed part of a run (process start, migrations, stream lock, checkpoint load, one commit)
          const setupSchema = `bench_setup_${schemaCounter++}`;
          const setup = await runIngest([
            '--pg', server.url, '--url', sandbox.url, '--to', String(offsets[0]), '--batch', '1', '--schema', setupSchema,
            '--stream-name', 'bench', '--stats', '--no-progress', '--log-level', 'warn',
          ]);
          await pool.query(`DROP SCHEMA ${setupSchema} CASCADE`);
          samples.push({ events: 0, batch: 1, updates: 1, rows: 0, seconds: setup.stats.seconds, wallSeconds: setup.wallSeconds });
          for (const [batch, count] of plan) {
            const schema = `bench_${events}ev_b${batch}_${schemaCounter++}`;
            const to = offsets[count - 1];
            if (to === undefined) throw new Error(`ingest: only ${offsets.length} transactions seeded, need ${count}`);
            const { stats, wallSeconds } = await runIngest([
              '--pg', server.url, '--url', sandbox.url, '--to', String(to), '--batch', String(batch), '--schema', schema,
              '--stream-name', 'bench', '--stats', '--no-progress', '--log-level', 'warn',
            ]);
            const counted = await pool.query<{ updates: string; created: string; active: string }>(
              `SELECT (SELECT count(*) FROM ${schema}.updates) AS updates, (SELECT count(*) FROM ${schema}.created_events) AS created,
                      (SELECT count(*) FROM ${schema}.active_contracts) AS active`,
            );
            const c = counted.rows[0] as { updates: string; created: string; active: string };
            const rows = Number(c.updates) + Number(c.created) + Number(c.active);
            if (Number(c.updates) !== count || stats.count !== count) throw new Error(`ingest: stored ${c.updates} updates (stats ${stats.count}), expected ${count}`);
            await pool.query(`DROP SCHEMA ${schema} CASCADE`);
            samples.push({ events, batch, updates: count, rows, seconds: stats.seconds, wallSeconds });
            log(`ingest round ${r + 1}/${runs}: ${events}-event, batch ${batch}: ${count} updates, ${rows} rows in ${stats.seconds.toFixed(2)} s → ${(count / stats.seconds).toFixed(0)} updates/s, ${(rows / stats.seconds).toFixed(0)} rows/s`);
          }
        }
      } finally {
        await sandbox.stop();
      }
    }
  } finally {
    await pool.end();
    server.stop();
  }

  const rows: Row[] = [];
  const pick = (events: number, batch: number) => samples.filter((s) => s.events === events && s.batch === batch);
  const setup = figure(pick(0, 1).map((s) => s.seconds * 1000));
  for (const events of [1, 5]) {
    const list = pick(events, 1000);
    const group = `ingest ${events}-event tx, batch 1000`;
    const ups = figure(list.map((s) => s.updates / s.seconds));
    rows.push({ group, subject: `ledger-rx ingest (${list[0]?.updates.toLocaleString('en-US')} updates)`, metric: 'updates/s', value: ups, check: atLeastAbsolute(ups.median, events === 1 ? 25_000 : 8_000, 'updates/s') });
    rows.push({ group, subject: 'ledger-rx ingest', metric: 'rows/s', value: figure(list.map((s) => s.rows / s.seconds)) });
    if (events > 1) rows.push({ group, subject: 'ledger-rx ingest', metric: 'events/s', value: figure(list.map((s) => (s.updates * events) / s.seconds)) });
  }
  const group = 'ingest 1-event tx, batch sweep';
  rows.push({ group, subject: 'fixed part of a run (start, migrations, lock, 1 commit)', metric: 'ms', value: setup });
  const perBatch = new Map<number, number>();
  for (const [batch] of sweep) {
    const list = pick(1, batch);
    rows.push({ group, subject: `batch ${batch} (${list[0]?.updates.toLocaleString('en-US')} updates)`, metric: 'updates/s', value: figure(list.map((s) => s.updates / s.seconds)) });
    const ms = figure(list.map((s) => Math.max(0, s.seconds * 1000 - setup.median) / (s.updates / batch)));
    perBatch.set(batch, ms.median);
    rows.push({ group, subject: `batch ${batch}`, metric: 'ms per batch (read + rows + checkpoint + commit)', value: ms, digits: 2 });
  }
  const t1 = perBatch.get(1);
  const t10 = perBatch.get(10);
  if (t1 !== undefined && t10 !== undefined) {
    // t(b) ≈ c + r·b over small batches: the per-transaction part c from batches 1 and 10
    const r = (t10 - t1) / 9;
    rows.push({ group, subject: 'exactly-once transaction, fixed cost (from batch 1 and 10)', metric: 'ms per commit', value: figure([t1 - r]), digits: 2, note: `+${r.toFixed(3)} ms per update` });
  }
  const file = run.finish({
    name: 'ingest',
    question: 'ledger-rx ingest into PostgreSQL: updates/s, rows/s, and the cost of the exactly-once transaction per batch size',
    mode: m,
    fixture: { postgres: server.version, durable, oneEvent, fiveEvent, sweep, runs, sandbox: 'buffered (default), 200-element cap', pageLimit: 200 },
    rows,
    extra: { samples },
  });
  log(`ingest: wrote ${file}`);
}

await main();
