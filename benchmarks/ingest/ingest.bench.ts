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
 * The embedded store beside the server: in the same rounds, the CLI also ingests into the embedded
 * PostgreSQL (PGlite, `--data-dir` in a fresh temporary directory instead of `--pg`), batch 1000, a tenth
 * of each workload (`--embedded-share`); reported: updates/s, the CLI's peak RSS (the embedded database
 * runs inside it; sampled from /proc every 100 ms), the bytes of the schema's tables with their indexes
 * and TOAST per update on each, the size of PGlite's whole data directory (catalog and WAL included), and
 * the fixed part of a run on each (for PGlite it creates the data directory, which the measured run then
 * reopens: its figure includes that reopen, as a restarted ingest pays it).
 *
 * Run (after the root `npm run build`; needs PostgreSQL installed, e.g. `apt-get install postgresql`):
 *
 *     npm --prefix benchmarks run build && node benchmarks/node_modules/.bench-build/ingest/ingest.bench.js [--quick] [--runs=3] [--durable=false] [--cli-node-args="--cpu-prof --cpu-prof-dir=DIR"]
 *         [--stores=server,embedded] [--events=1,5] [--batches=1,10,100,1000] [--one-event=N] [--five-event=N] [--embedded-share=0.1]
 *         [--before=DIR]
 *
 * `--before=DIR` also measures a second build (the root of a worktree of an older commit, built, with its
 * node_modules): in every round both CLIs run the same workloads, alternating which goes first, into their
 * own schemas and data directories; the report adds a "before vs after" group (updates/s per store and
 * workload) and every other figure is this build's.
 *
 * Writes benchmarks/results/ingest.json; the full table is in benchmarks/README.md.
 *
 * Latest figures: benchmarks/results/ingest.json and the table in benchmarks/README.md (not repeated here,
 * so that they cannot go stale).
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { log, mode, numberOption, option } from '../lib/args.js';
import { buildDir, cliMain, dataDir } from '../lib/paths.js';
import { startPostgres } from '../lib/postgres.js';
import { MiB, procStatusBytes, startSandboxProcess } from '../lib/proc.js';
import { atLeastAbsolute, figure, type Row } from '../lib/report.js';
import { cpuAtExitFlags, cpuAtExitOf, processCpuMs, processTreeCpuMs } from '../lib/cpu.js';
import { startBenchRun } from '../lib/bench-run.js';

/** `--stats` of the CLI. */
interface RunStats {
  readonly count: number;
  readonly bytes: number;
  readonly seconds: number;
  readonly updatesPerSecond: number;
}

/** Where the CLI writes: the PostgreSQL server (`--pg`) or the embedded PGlite (`--data-dir`). */
type Store = 'server' | 'embedded';

interface IngestSample {
  /** Which build ran: `after` is this one (also without `--before`). */
  readonly build: 'before' | 'after';
  readonly store: Store;
  /** 0 for the setup runs (one update: start-up, migrations, lock, one commit). */
  readonly events: number;
  readonly batch: number;
  readonly updates: number;
  readonly rows: number;
  readonly seconds: number;
  readonly wallSeconds: number;
  /** Peak RSS of the CLI process (sampled from /proc every 100 ms), bytes. */
  readonly cliPeakRss: number;
  /** Bytes of the schema's tables with their indexes and TOAST after the run (`pg_total_relation_size`). */
  readonly dataBytes: number;
  /** Embedded only: bytes of the whole data directory after the run (catalog, WAL, the setup run's schema). */
  readonly dirBytes?: number | undefined;
  /** CPU time of the CLI process (user + system, its own at exit; for the embedded store PGlite runs inside it), ms. */
  readonly cliCpuMs?: number | undefined;
  /** CPU time of the PostgreSQL server during the run (postmaster, backends, WAL writer, …: `processTreeCpuMs`), ms; 0 for the embedded store. */
  readonly pgCpuMs?: number | undefined;
  /** CPU time of the sandbox participant's process during the run, ms. */
  readonly sandboxCpuMs?: number | undefined;
  /** The 1-minute load average when the run ended. */
  readonly load1?: number | undefined;
}

/** Node flags for the measured CLI, e.g. `--cli-node-args="--cpu-prof --cpu-prof-dir=/tmp/p"` to profile each run. */
const cliNodeArgs = option('cli-node-args', '').split(' ').filter((a) => a !== '');

/** The CPU of the processes beside the CLI: the server (0 when the store is embedded) and the sandbox, in ms so far. */
interface Beside {
  readonly pgCpuMs: () => number;
  readonly sandboxCpuMs: () => number;
}

interface IngestRun {
  readonly stats: RunStats;
  readonly wallSeconds: number;
  readonly peakRss: number;
  readonly cliCpuMs: number;
  readonly pgCpuMs: number;
  readonly sandboxCpuMs: number;
}

function runIngest(main: string, args: readonly string[], beside: Beside): Promise<IngestRun> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const pg0 = beside.pgCpuMs();
    const sandbox0 = beside.sandboxCpuMs();
    const child = spawn(process.execPath, [...cpuAtExitFlags, ...cliNodeArgs, main, 'ingest', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let peakRss = 0;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, procStatusBytes(child.pid as number, 'VmHWM'))), 100);
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
    child.on('close', (code) => {
      clearInterval(sampler);
      const wallSeconds = (performance.now() - t0) / 1000;
      const pgCpuMs = beside.pgCpuMs() - pg0;
      const sandboxCpuMs = beside.sandboxCpuMs() - sandbox0;
      const line = err.trim().split('\n').reverse().find((l) => l.startsWith('{"count"'));
      const cpu = cpuAtExitOf(err);
      if (code !== 0 || line === undefined || cpu === undefined) {
        reject(new Error(`ingest exited with ${code}:\n${err.slice(-3000)}`));
        return;
      }
      resolve({ stats: JSON.parse(line) as RunStats, wallSeconds, peakRss, cliCpuMs: cpu.userMs + cpu.systemMs, pgCpuMs, sandboxCpuMs });
    });
  });
}

function duBytes(dir: string): number {
  return Number(execFileSync('du', ['-sb', dir], { encoding: 'utf8' }).split('\t')[0]);
}

/** The counts and sizes of `schema` (SQL run on the server or in PGlite). */
function countsSql(schema: string): string {
  return `SELECT (SELECT count(*) FROM ${schema}.updates)::text AS updates, (SELECT count(*) FROM ${schema}.created_events)::text AS created,
                 (SELECT count(*) FROM ${schema}.active_contracts)::text AS active,
                 (SELECT sum(pg_total_relation_size(c.oid)) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                   WHERE n.nspname = '${schema}' AND c.relkind = 'r')::text AS bytes`;
}

interface Counts {
  readonly updates: string;
  readonly created: string;
  readonly active: string;
  readonly bytes: string;
}

/** {@link countsSql} in an embedded data directory (the CLI has exited and released it). */
async function embeddedCounts(dataDir: string, schema: string): Promise<Counts> {
  // PGlite is a dependency of the library (this resolves through the repository's node_modules)
  const { PGlite } = await import('@electric-sql/pglite');
  const db = await PGlite.create(join(dataDir, 'pgdata'));
  try {
    const r = await db.query<Counts>(countsSql(schema));
    return r.rows[0] as Counts;
  } finally {
    await db.close();
  }
}

function list(name: string, fallback: string): string[] {
  return option(name, fallback).split(',').filter((v) => v !== '');
}

async function main(): Promise<void> {
  const run = startBenchRun();
  const m = mode();
  const runs = numberOption('runs', m === 'quick' ? 1 : 3);
  const durable = option('durable', 'true') !== 'false';
  const oneEvent = numberOption('one-event', m === 'quick' ? 10_000 : 100_000);
  const fiveEvent = numberOption('five-event', m === 'quick' ? 4_000 : 40_000);
  // the embedded store ingests fewer updates: a tenth of each workload (its rate is what counts)
  const embeddedShare = numberOption('embedded-share', 0.1);
  const stores = list('stores', 'server,embedded') as Store[];
  const beforeRoot = option('before', '');
  const builds: { readonly build: IngestSample['build']; readonly main: string }[] = [{ build: 'after', main: cliMain }];
  if (beforeRoot !== '') builds.push({ build: 'before', main: join(beforeRoot, 'dist', 'cli', 'main.js') });
  const eventCounts = list('events', '1,5').map(Number);
  const batches = list('batches', '1,10,100,1000').map(Number);
  // batch size → number of updates ingested at that size (small batches take longer per update)
  const sweep: [number, number][] = (m === 'quick' ? [[1, 500], [10, 2_000], [100, 10_000], [1000, oneEvent]] : [[1, 2_000], [10, 10_000], [100, 50_000], [1000, oneEvent]])
    .filter(([b]) => batches.includes(b as number)) as [number, number][];

  const server = await startPostgres({ durable });
  if (!server) throw new Error('ingest: PostgreSQL is not installed (apt-get install postgresql)');
  log(`ingest: ${server.version} at ${server.url} (${durable ? 'durable: fsync and synchronous_commit on' : 'fsync off'}); stores: ${stores.join(', ')}`);
  const pool = new pg.Pool({ connectionString: server.url, max: 2 });
  const samples: IngestSample[] = [];
  let schemaCounter = 0;
  mkdirSync(dataDir, { recursive: true });
  const embeddedRoot = mkdtempSync(join(tmpdir(), 'ledger-rx-bench-pglite-'));
  try {
    for (const events of eventCounts) {
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
      const common = ['--url', sandbox.url, '--stream-name', 'bench', '--stats', '--no-progress', '--log-level', 'warn'];
      /**
       * One CLI run into a fresh schema: on the server, or in the embedded data directory `dir` (created by
       * the run when it does not exist yet); returns the stored counts.
       */
      const ingestInto = async (main: string, store: Store, to: number, batch: number, label: string, dir = '') => {
        const schema = `bench_${label}_${schemaCounter++}`;
        const target = store === 'server' ? ['--pg', server.url] : ['--data-dir', dir];
        const beside: Beside = { pgCpuMs: () => (store === 'server' ? processTreeCpuMs(server.pid) : 0), sandboxCpuMs: () => processCpuMs(sandbox.pid) };
        const result = await runIngest(main, [...target, '--to', String(to), '--batch', String(batch), '--schema', schema, ...common], beside);
        let counts: Counts;
        let dirBytes: number | undefined;
        if (store === 'server') {
          counts = (await pool.query<Counts>(countsSql(schema))).rows[0] as Counts;
          await pool.query(`DROP SCHEMA ${schema} CASCADE`);
        } else {
          counts = await embeddedCounts(dir, schema);
          dirBytes = duBytes(dir);
        }
        return { ...result, counts, dataBytes: Number(counts.bytes), dirBytes };
      };
      try {
        for (let r = 0; r < runs; r++) {
          for (const store of stores) {
            // with --before, the two builds alternate which goes first
            for (const { build, main } of r % 2 === 0 ? builds : [...builds].reverse()) {
              // the fixed part of a run (process start, migrations, stream lock, checkpoint load, one commit); for
              // the embedded store it creates the data directory that the measured run then reopens, as a
              // restarted ingest would (creating the cluster costs seconds, once)
              const dir = join(embeddedRoot, `r${r}_${events}_${build}`);
              const setup = await ingestInto(main, store, offsets[0] as number, 1, 'setup', dir);
              samples.push({ build, store, events: 0, batch: 1, updates: 1, rows: 0, seconds: setup.stats.seconds, wallSeconds: setup.wallSeconds, cliPeakRss: setup.peakRss, dataBytes: setup.dataBytes, dirBytes: setup.dirBytes });
              // the embedded store: batch 1000 only (the sweep is about the server's commit cost)
              for (const [batch, full] of store === 'server' ? plan : plan.filter(([b]) => b === 1000)) {
                const count = store === 'server' ? full : Math.max(1, Math.round(full * embeddedShare));
                const to = offsets[count - 1];
                if (to === undefined) throw new Error(`ingest: only ${offsets.length} transactions seeded, need ${count}`);
                const { stats, wallSeconds, peakRss, counts: c, dataBytes, dirBytes, cliCpuMs, pgCpuMs, sandboxCpuMs } = await ingestInto(main, store, to, batch, `${events}ev_b${batch}`, dir);
                const load1 = loadavg()[0] ?? 0;
                const rows = Number(c.updates) + Number(c.created) + Number(c.active);
                if (Number(c.updates) !== count || stats.count !== count) throw new Error(`ingest (${store}): stored ${c.updates} updates (stats ${stats.count}), expected ${count}`);
                samples.push({ build, store, events, batch, updates: count, rows, seconds: stats.seconds, wallSeconds, cliPeakRss: peakRss, dataBytes, dirBytes, cliCpuMs, pgCpuMs, sandboxCpuMs, load1 });
                const perUpdate = (ms: number) => ((ms * 1000) / count).toFixed(1);
                log(
                  `ingest round ${r + 1}/${runs}: ${build === 'before' ? 'BEFORE, ' : ''}${store}, ${events}-event, batch ${batch}: ${count} updates, ${rows} rows in ${stats.seconds.toFixed(2)} s → ` +
                    `${(count / stats.seconds).toFixed(0)} updates/s, ${(rows / stats.seconds).toFixed(0)} rows/s; CLI peak RSS ${(peakRss / MiB).toFixed(0)} MiB, ` +
                    `${(dataBytes / MiB).toFixed(1)} MiB of tables${dirBytes === undefined ? '' : ` (${(dirBytes / MiB).toFixed(1)} MiB directory)`}; CPU µs/update: CLI ${perUpdate(cliCpuMs)}, ` +
                    `PostgreSQL ${perUpdate(pgCpuMs)}, sandbox ${perUpdate(sandboxCpuMs)} (load ${load1.toFixed(2)})`,
                );
              }
              rmSync(dir, { recursive: true, force: true });
            }
          }
        }
      } finally {
        await sandbox.stop();
      }
    }
  } finally {
    await pool.end();
    server.stop();
    rmSync(embeddedRoot, { recursive: true, force: true });
  }

  const rows: Row[] = [];
  /** CPU µs per update of the CLI, the server (when there is one) and the sandbox, and the load when the runs ended. */
  const cpuRows = (group: string, subject: string, list: readonly IngestSample[]): Row[] => {
    const per = (ms: (s: IngestSample) => number | undefined) => figure(list.map((s) => ((ms(s) ?? 0) * 1000) / s.updates));
    const out: Row[] = [{ group, subject, metric: 'CLI CPU µs per update', value: per((s) => s.cliCpuMs), digits: 1 }];
    if (list[0]?.store === 'server') out.push({ group, subject, metric: 'PostgreSQL CPU µs per update', value: per((s) => s.pgCpuMs), digits: 1 });
    out.push({ group, subject, metric: 'sandbox CPU µs per update', value: per((s) => s.sandboxCpuMs), digits: 1 });
    out.push({ group, subject, metric: 'load average (1 min) at the end of a run', value: figure(list.map((s) => s.load1 ?? 0)), digits: 2 });
    return out;
  };
  const pick = (store: Store, events: number, batch: number, build: IngestSample['build'] = 'after') =>
    samples.filter((s) => s.build === build && s.store === store && s.events === events && s.batch === batch);
  if (beforeRoot !== '') {
    const beforeLabel = (() => {
      try {
        return `commit ${execFileSync('git', ['-C', beforeRoot, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim()}`;
      } catch {
        return beforeRoot;
      }
    })();
    // same rounds, alternating: the only comparison of two builds that the shared host's load leaves fair
    for (const store of stores) {
      for (const events of eventCounts) {
        for (const build of ['before', 'after'] as const) {
          const list = pick(store, events, 1000, build);
          if (list.length > 0) {
            const group = `before vs after: ${store}, ${events}-event tx, batch 1000`;
            const subject = build === 'before' ? `before (${beforeLabel})` : 'after (this build)';
            rows.push({ group, subject, metric: 'updates/s', value: figure(list.map((s) => s.updates / s.seconds)) });
            rows.push(...cpuRows(group, subject, list));
          }
        }
      }
    }
  }
  if (stores.includes('server')) {
    for (const events of eventCounts) {
      const list = pick('server', events, 1000);
      if (list.length === 0) continue;
      const group = `ingest ${events}-event tx, batch 1000`;
      const ups = figure(list.map((s) => s.updates / s.seconds));
      rows.push({ group, subject: `ledger-rx ingest (${list[0]?.updates.toLocaleString('en-US')} updates)`, metric: 'updates/s', value: ups, check: atLeastAbsolute(ups.median, events === 1 ? 25_000 : 8_000, 'updates/s') });
      rows.push({ group, subject: 'ledger-rx ingest', metric: 'rows/s', value: figure(list.map((s) => s.rows / s.seconds)) });
      rows.push(...cpuRows(group, 'ledger-rx ingest', list));
      if (events > 1) rows.push({ group, subject: 'ledger-rx ingest', metric: 'events/s', value: figure(list.map((s) => (s.updates * events) / s.seconds)) });
    }
    const setupList = pick('server', 0, 1);
    const setup = figure(setupList.map((s) => s.seconds * 1000));
    const group = 'ingest 1-event tx, batch sweep';
    if (eventCounts.includes(1) && sweep.length > 0) rows.push({ group, subject: 'fixed part of a run (start, migrations, lock, 1 commit)', metric: 'ms', value: setup });
    const perBatch = new Map<number, number>();
    for (const [batch] of eventCounts.includes(1) ? sweep : []) {
      const list = pick('server', 1, batch);
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
  }
  // embedded beside server: the same workloads (batch 1000), the same runs
  for (const events of stores.includes('embedded') ? eventCounts : []) {
    const group = `ingest ${events}-event tx, batch 1000: embedded (PGlite) vs server`;
    for (const store of stores) {
      const list = pick(store, events, 1000);
      if (list.length === 0) continue;
      const subject = `${store === 'server' ? 'PostgreSQL server (--pg)' : 'embedded PGlite (--data-dir)'}, ${list[0]?.updates.toLocaleString('en-US')} updates`;
      rows.push({ group, subject, metric: 'updates/s', value: figure(list.map((s) => s.updates / s.seconds)) });
      rows.push({ group, subject, metric: 'CLI peak RSS, MiB', value: figure(list.map((s) => s.cliPeakRss / MiB)) });
      rows.push(...cpuRows(group, subject, list));
      rows.push({ group, subject, metric: 'bytes of tables and indexes per update', value: figure(list.map((s) => s.dataBytes / s.updates)) });
      if (store === 'embedded') rows.push({ group, subject, metric: 'data directory, MiB (catalog and WAL included)', value: figure(list.map((s) => (s.dirBytes ?? 0) / MiB)), digits: 1 });
    }
  }
  for (const store of stores.includes('embedded') ? stores : []) {
    const list = pick(store, 0, 1);
    if (list.length > 0) rows.push({ group: 'ingest, fixed part of a run (start, migrations, lock, 1 commit)', subject: store === 'server' ? 'PostgreSQL server (--pg)' : 'embedded PGlite (--data-dir, new directory)', metric: 'ms', value: figure(list.map((s) => s.seconds * 1000)) });
  }
  const file = run.finish({
    name: 'ingest',
    question: 'ledger-rx ingest into PostgreSQL: updates/s, rows/s, and the cost of the exactly-once transaction per batch size; the embedded PGlite beside the server',
    mode: m,
    fixture: { postgres: server.version, durable, before: beforeRoot === '' ? undefined : beforeRoot, oneEvent, fiveEvent, sweep, runs, stores, embeddedShare, sandbox: 'buffered (default), 200-element cap', pageLimit: 200 },
    rows,
    extra: { samples },
  });
  log(`ingest: wrote ${file}`);
}

await main();
