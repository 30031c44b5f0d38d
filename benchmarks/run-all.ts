/**
 * The runner behind `npm run bench`: runs every benchmark file in its own process, one after the other,
 * then prints ONE table (every figure: median with min–max over the runs, target, actual ratio or value,
 * pass) built from benchmarks/results/<name>.json.
 *
 *     npm run bench                                   # from the repository root: build, then the full set (~35 min)
 *     npm run bench -- --quick                        # smaller fixtures, fewer runs (~1 min): a smoke test
 *     node benchmarks/node_modules/.bench-build/run-all.js [--quick] [--only=decode,http,tail,acs,ingest,store-query,publish,metrics,start-up,daml] [--table-only]
 *
 * `--table-only` prints the table of the stored results without running anything. A full run of the whole
 * set also rewrites the results table in benchmarks/README.md (between the `results` markers);
 * `--update-readme` does that from the stored full results, e.g. after re-running one part.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { flag, log, mode, option } from './lib/args.js';
import { load, machineInfo } from './lib/machine.js';
import { findNatsServer } from './lib/nats-server.js';
import { benchRoot, buildDir, cliMain } from './lib/paths.js';
import { isMoot, readResult, resultsFile, table, type BenchResult, type Row } from './lib/report.js';

const all = ['decode', 'http', 'tail', 'acs', 'ingest', 'store-query', 'publish', 'metrics', 'start-up', 'daml'] as const;

function prerequisites(name: string): string | undefined {
  if (!existsSync(cliMain)) return `${cliMain} is missing: run \`npm run build\` at the root`;
  if (name === 'ingest' && spawnSync(process.execPath, [cliMain, 'ingest', '--help'], { stdio: 'ignore' }).status !== 0) return '`ledger-rx ingest` is not built';
  if (name === 'ingest' || name === 'metrics' || name === 'store-query') {
    const pg = spawnSync('sh', ['-c', 'ls /usr/lib/postgresql/*/bin/pg_ctl || command -v pg_ctl'], { encoding: 'utf8' });
    if (pg.stdout.trim() === '') return 'PostgreSQL is not installed (apt-get install postgresql)';
  }
  if (name === 'publish' && findNatsServer() === undefined) return 'nats-server is not installed (apt-get install nats-server)';
  return undefined;
}

function header(results: readonly BenchResult[]): string {
  const machine = results[0]?.machine ?? machineInfo();
  const lines = [
    `Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB, ${machine.os}, Node ${machine.node}.`,
    '',
    '| benchmark | mode | date (UTC) | duration | load before → after (1/5/15 min) | CPU speed index before → after |',
    '|---|---|---|---:|---|---|',
  ];
  for (const r of results) {
    const speed = r.speed ? `${r.speed.before} → ${r.speed.after}` : 'n/a';
    lines.push(`| ${r.name} | ${r.mode} | ${r.date.slice(0, 16).replace('T', ' ')} | ${r.durationSeconds} s | ${r.load.before} → ${r.load.after} | ${speed} |`);
  }
  lines.push('', 'CPU speed index: MB/s of `JSON.parse` on a fixed 8 MB text in the benchmark process (higher is faster; the same code ran ~40% slower on this VM at times while the VM itself was idle).');
  return lines.join('\n');
}

function sizes(f: Readonly<Record<string, unknown>>): string[] {
  return Array.isArray(f['sizes']) ? (f['sizes'] as unknown[]).map(String) : ['?', '?'];
}

function fixtureLine(r: BenchResult): string {
  const f = r.fixture;
  switch (r.name) {
    case 'decode':
      return `decode: ${(Number(f['bytes']) / 1e6).toFixed(0)} MB generated body, ${Number(f['elements']).toLocaleString('en-US')} elements (avg ${String(f['averageElementBytes'])} B), 64 KiB chunks from memory, ${String(f['runs'])} runs, fresh process per run.`;
    case 'http':
      return `http: sandbox (streamed) in its own process, seed ${String(f['seed'])} tx, avg ${String(f['averageElementBytes'])} B per element, one request per body, fresh client process per read; ${sizes(f)[0]} MB: ${String(f['runs'])} runs, ${sizes(f)[1]} MB: ${String(f['largeRuns'])} runs (peers that fail run once).`;
    case 'tail':
      return `tail: sandboxes (buffered: 200 cap, 500 ms wait; and streamed) seeded with ${String(f['seed'])} tx, transports ${Array.isArray(f['transports']) ? f['transports'].join(', ') : 'list'}, ${String(f['runs'])} run(s) of catch-up and latency (slow consumer: 1 run each).`;
    case 'acs':
      return `acs: sandbox (buffered, list limit raised to ${Number(f['contracts']) * 2}) in its own process holding ${Number(f['contracts']).toLocaleString('en-US')} active contracts (1 Iou create per tx), fresh client process per read, ${String(f['runs'])} run(s); ${Number(f['submissions']).toLocaleString('en-US')} commands at 50/s per latency run.`;
    case 'ingest':
      return `ingest: ${String(f['postgres'])}, ${f['durable'] ? 'durable commits (fsync on)' : 'fsync off'}, sandbox (buffered) in its own process, ${String(f['runs'])} run(s), fresh schema per run.`;
    case 'store-query':
      return `store-query: ${String(f['postgres'])}, fsync off, ${Number(f['contracts']).toLocaleString('en-US')} contracts created by one-create transactions (99% Iou, 1% Trade), every fifth archived, loaded by SQL; ${String(f['repeat'])} calls per question (the count over Iou: ${String(f['heavyRepeat'])}), function and hand-written query alternating.`;
    case 'publish':
      return `publish: ${String(f['natsServer'])}, file storage, sandbox (buffered) in its own process with ${Number(f['updates']).toLocaleString('en-US')} 1-event tx (avg ${String(f['averageElementBytes'])} B), fresh publisher process and new stream per run, ${String(f['runs'])} run(s) per variant (cluster: ${String(f['clusterRuns'])}).`;
    case 'metrics':
      return `metrics: tail and ingest of ${Number(f['transactions']).toLocaleString('en-US')} 1-event tx with and without \`--metrics-port\` (scraped every ${Number(f['scrapeEveryMs'] ?? 1000) / 1000} s), ${String(f['runs'])} interleaved rounds, CPU of the CLI process from /proc, sandbox (buffered) in its own process, ${String(f['postgres'])} with durable commits.`;
    case 'start-up':
      return `start-up: ${String(f['runs'])} cold processes per figure, interleaved; first element from a sandbox (${String(f['sandbox'])}) in its own process.`;
    case 'daml':
      return `daml: ${f['packages'] === undefined ? '' : `readDar and codegen of ${String(f['dar']).split('/').at(-1)} (${String(f['packages'])} packages), ${String(f['runs'])} fresh processes; `}typed read: ${Number(f['events']).toLocaleString('en-US')} one-create transactions (${(Number(f['bodyBytes']) / 1e6).toFixed(0)} MB body from memory, the client's validated decoding), ${String(f['typedRuns'])} fresh processes of ${String(f['rounds'])} alternating rounds.`;
    default:
      return r.name;
  }
}

function render(results: readonly BenchResult[]): string {
  const rows: Row[] = results.flatMap((r) => r.rows);
  const withTarget = rows.filter((r) => r.check !== undefined);
  const checks = withTarget.filter((r) => r.check !== undefined && !isMoot(r.check));
  const moot = withTarget.length - checks.length;
  const failed = checks.filter((r) => r.check?.pass === false);
  return [
    header(results),
    '',
    ...results.map((r) => `- ${fixtureLine(r)}`),
    '',
    table(rows),
    '',
    `${checks.length - failed.length} of ${checks.length} targets met${failed.length > 0 ? `; missed: ${failed.map((r) => `${r.group} / ${r.subject} / ${r.metric}`).join('; ')}` : ''}${moot > 0 ? `; ${moot} comparison(s) not possible (the peer failed to read the body)` : ''}.`,
  ].join('\n');
}

function updateReadme(text: string): void {
  const file = join(benchRoot, 'README.md');
  if (!existsSync(file)) return;
  const readme = readFileSync(file, 'utf8');
  const start = '<!-- results:start -->';
  const end = '<!-- results:end -->';
  const i = readme.indexOf(start);
  const j = readme.indexOf(end);
  if (i < 0 || j < i) return;
  writeFileSync(file, `${readme.slice(0, i + start.length)}\n${text}\n${readme.slice(j)}`);
  log(`run-all: updated the table in ${file}`);
}

function main(): void {
  const m = mode();
  const only = option('only', all.join(',')).split(',');
  const selected = all.filter((n) => only.includes(n));
  const started = performance.now();
  if (!flag('table-only')) {
    log(`run-all: ${m} mode, load ${load()}: ${selected.join(', ')}`);
    for (const name of selected) {
      const missing = prerequisites(name);
      if (missing) {
        log(`run-all: skipping ${name}: ${missing}`);
        continue;
      }
      log(`run-all: ${name} …`);
      const script = join(buildDir, name, `${name}.bench.js`);
      const r = spawnSync(process.execPath, [script, ...(m === 'quick' ? ['--quick'] : [])], { stdio: ['ignore', 'inherit', 'inherit'] });
      if (r.status !== 0) {
        log(`run-all: ${name} failed (exit ${r.status ?? r.signal}); its previous results, if any, are shown`);
        process.exitCode = 1;
      }
    }
  }
  const results = selected.filter((n) => existsSync(resultsFile(n, m))).map((n) => readResult(n, m));
  const text = render(results);
  process.stdout.write(`\n${text}\n`);
  if (!flag('table-only')) log(`run-all: done in ${((performance.now() - started) / 60_000).toFixed(1)} min`);
  // a full run of the whole set rewrites the README's table; `--update-readme` does it from the stored results
  // (e.g. after re-running one part when the machine was quieter)
  const complete = m === 'full' && results.length === all.length;
  if (complete && (flag('update-readme') || (!flag('table-only') && selected.length === all.length))) updateReadme(text);
}

main();
