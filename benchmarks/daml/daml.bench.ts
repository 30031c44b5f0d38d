/**
 * Two questions about typed templates:
 *
 * 1. Reading and generating the Splice DAR (splice-amulet-name-service, 43 packages, 1.1 MB zipped, 4.4 MB of
 *    archives): `readDar` of `ledger-rx/daml` and the whole `ledger-rx codegen` process.
 * 2. What typing costs a read: CPU per event of `createdOf(RichRecord)` (each payload checked by the generated
 *    schema) against reading the same created events untyped, on the client's decoding path, 10^5 events
 *    (typed-child.ts). Target: the typed path costs at most 25% more CPU per event.
 *
 *     node benchmarks/node_modules/.bench-build/daml/daml.bench.js [--runs=9] [--warm=10] [--quick] [--dar=PATH]
 *         [--events=100000] [--typed-runs=5] [--typed-only]
 *
 * Figures (median, min–max over `runs` fresh processes):
 * - `readDar` cold: the first call in a fresh process that has already imported `ledger-rx/daml` (unzip, hash,
 *   decode, JIT warm-up included): what a CLI or a server start pays;
 * - `readDar` warm: the median of `warm` further calls in the same process;
 * - peak RSS of that process after the reads;
 * - `ledger-rx codegen <dar> --out <tmp>`: the whole process, spawn to exit (Node start, imports, read, generate,
 *   write), and the number of files it wrote;
 * - typed and untyped reads: CPU µs per event, each the median of the rounds of one fresh process (both paths
 *   warmed up first, rounds alternating which goes first), over `typed-runs` processes; and the ratio.
 * The DAR comes from ../shared/dars (the reference beside the repository) unless `--dar` names one.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { flag, log, mode, numberOption, option } from '../lib/args.js';
import { startBenchRun } from '../lib/bench-run.js';
import { buildDir, cliMain, repoRoot } from '../lib/paths.js';
import { figure, type Row } from '../lib/report.js';

const child = `
const { readFile } = await import('node:fs/promises');
const { readDar } = await import('ledger-rx/daml');
const bytes = await readFile(process.argv[1]);
const warmRuns = Number(process.argv[2]);
let t = performance.now();
const dar = readDar(bytes);
const cold = performance.now() - t;
const warm = [];
for (let i = 0; i < warmRuns; i++) { t = performance.now(); readDar(bytes); warm.push(performance.now() - t); }
warm.sort((a, b) => a - b);
process.stdout.write(JSON.stringify({ cold, warm: warm[Math.floor(warm.length / 2)], packages: dar.packages.size, rssMb: process.resourceUsage().maxRSS / 1024 }));
`;

function countFiles(dir: string): number {
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;
}

/** The Splice DAR part: `runs` fresh processes of readDar, then the codegen process. */
function darRows(m: 'full' | 'quick'): { rows: Row[]; fixture: Record<string, unknown> } {
  const runs = numberOption('runs', m === 'quick' ? 3 : 9);
  const warmRuns = numberOption('warm', m === 'quick' ? 3 : 10);
  const dar = option('dar', join(repoRoot, '..', 'shared', 'dars', 'splice-amulet-name-service.dar'));
  const cold: number[] = [];
  const warm: number[] = [];
  const rss: number[] = [];
  const codegen: number[] = [];
  let packages = 0;
  let files = 0;
  for (let i = 0; i < runs; i++) {
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', child, dar, String(warmRuns)], { encoding: 'utf8', cwd: join(repoRoot, 'benchmarks') });
    if (r.status !== 0) throw new Error(`readDar child failed: ${r.stderr}`);
    const out = JSON.parse(r.stdout) as { cold: number; warm: number; packages: number; rssMb: number };
    cold.push(out.cold);
    warm.push(out.warm);
    rss.push(out.rssMb);
    packages = out.packages;
    const dir = mkdtempSync(join(tmpdir(), 'ledger-rx-bench-codegen-'));
    try {
      const t0 = process.hrtime.bigint();
      const g = spawnSync(process.execPath, [cliMain, 'codegen', dar, '--out', dir], { encoding: 'utf8' });
      codegen.push(Number(process.hrtime.bigint() - t0) / 1e6);
      if (g.status !== 0) throw new Error(`codegen failed: ${g.stderr}`);
      files = countFiles(dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    log(`daml: run ${i + 1}/${runs}: readDar cold ${cold.at(-1)!.toFixed(0)} ms, warm ${warm.at(-1)!.toFixed(0)} ms, codegen ${codegen.at(-1)!.toFixed(0)} ms`);
  }
  const group = `Splice DAR (${packages} packages)`;
  const rows: Row[] = [
    { group, subject: 'readDar, first call in a process', metric: 'ms', value: figure(cold) },
    { group, subject: `readDar, warm (median of ${warmRuns})`, metric: 'ms', value: figure(warm) },
    { group, subject: 'readDar process peak RSS', metric: 'MB', value: figure(rss) },
    { group, subject: `ledger-rx codegen process (${files} files)`, metric: 'ms', value: figure(codegen) },
  ];
  return { rows, fixture: { dar, runs, warmRuns, packages, files } };
}

const median = (xs: readonly number[]): number => figure(xs).median;

/** The typed-read part: `typed-runs` fresh processes of typed-child.js. */
function typedRows(m: 'full' | 'quick'): { rows: Row[]; fixture: Record<string, unknown> } {
  const events = numberOption('events', m === 'quick' ? 10_000 : 100_000);
  const runs = numberOption('typed-runs', m === 'quick' ? 2 : 5);
  const rounds = m === 'quick' ? 3 : 5;
  const untyped: number[] = [];
  const typed: number[] = [];
  const ratios: number[] = [];
  let bytes = 0;
  for (let i = 0; i < runs; i++) {
    const r = spawnSync(process.execPath, [join(buildDir, 'daml', 'typed-child.js'), String(events), String(rounds)], { encoding: 'utf8', cwd: join(repoRoot, 'benchmarks'), maxBuffer: 1 << 20 });
    if (r.status !== 0) throw new Error(`typed child failed: ${r.stderr}`);
    const out = JSON.parse(r.stdout) as { bytes: number; rounds: { untyped: number; typed: number; read: [number, number] }[] };
    for (const round of out.rounds) if (round.read[0] !== events || round.read[1] !== events) throw new Error(`a path read ${round.read.join('/')} of ${events} events`);
    bytes = out.bytes;
    const u = median(out.rounds.map((x) => x.untyped));
    const t = median(out.rounds.map((x) => x.typed));
    untyped.push(u);
    typed.push(t);
    ratios.push(t / u);
    log(`daml: typed run ${i + 1}/${runs}: untyped ${u.toFixed(2)} µs/event, typed ${t.toFixed(2)} µs/event (${(t / u).toFixed(2)}×)`);
  }
  const group = `typed read, ${events.toLocaleString('en-US')} events`;
  const ratio = figure(ratios);
  const rows: Row[] = [
    { group, subject: 'untyped: created events of the template, payload unknown', metric: 'CPU µs/event', value: figure(untyped), digits: 2 },
    { group, subject: 'typed: createdOf(RichRecord), payload checked by the generated schema', metric: 'CPU µs/event', value: figure(typed), digits: 2 },
    {
      group,
      subject: 'typed ÷ untyped (per process)',
      metric: '×',
      value: ratio,
      digits: 2,
      check: { target: '≤ 1.25× untyped', actual: `${ratio.median.toFixed(2)}×`, pass: ratio.median <= 1.25 },
    },
  ];
  return { rows, fixture: { events, typedRuns: runs, rounds, bodyBytes: bytes } };
}

function main(): void {
  const m = mode();
  const bench = startBenchRun();
  const dar = flag('typed-only') ? { rows: [], fixture: {} } : darRows(m);
  const typed = typedRows(m);
  const rows = [...dar.rows, ...typed.rows];
  for (const r of rows) log(`daml: ${r.subject}: median ${r.value!.median.toFixed(2)} ${r.metric} (${r.value!.min.toFixed(2)}–${r.value!.max.toFixed(2)})`);
  const file = bench.finish({
    name: 'daml',
    question: 'reading and generating the Splice DAR (readDar cold and warm, the codegen process); CPU per event of a typed createdOf read against an untyped one',
    mode: m,
    fixture: { ...dar.fixture, ...typed.fixture },
    rows,
  });
  log(`daml: wrote ${file}`);
}

main();
