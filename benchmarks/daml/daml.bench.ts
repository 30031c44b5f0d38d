/**
 * Reading and generating the Splice DAR (splice-amulet-name-service, 43 packages, 1.1 MB zipped, 4.4 MB of
 * archives): `readDar` of `ledger-rx/daml` and the whole `ledger-rx codegen` process. Not in `run-all` yet: run
 * it alone.
 *
 *     node benchmarks/node_modules/.bench-build/daml/daml.bench.js [--runs=9] [--warm=10] [--quick] [--dar=PATH]
 *
 * Figures (median, min–max over `runs` fresh processes):
 * - `readDar` cold: the first call in a fresh process that has already imported `ledger-rx/daml` (unzip, hash,
 *   decode, JIT warm-up included): what a CLI or a server start pays;
 * - `readDar` warm: the median of `warm` further calls in the same process;
 * - peak RSS of that process after the reads;
 * - `ledger-rx codegen <dar> --out <tmp>`: the whole process, spawn to exit (Node start, imports, read, generate,
 *   write), and the number of files it wrote.
 * The DAR comes from ../shared/dars (the reference beside the repository) unless `--dar` names one.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { log, mode, numberOption, option } from '../lib/args.js';
import { startBenchRun } from '../lib/bench-run.js';
import { cliMain, repoRoot } from '../lib/paths.js';
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

function main(): void {
  const m = mode();
  const runs = numberOption('runs', m === 'quick' ? 3 : 9);
  const warmRuns = numberOption('warm', m === 'quick' ? 3 : 10);
  const dar = option('dar', join(repoRoot, '..', 'shared', 'dars', 'splice-amulet-name-service.dar'));
  const bench = startBenchRun();
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
  for (const r of rows) log(`daml: ${r.subject}: median ${r.value!.median.toFixed(1)} ${r.metric} (${r.value!.min.toFixed(1)}–${r.value!.max.toFixed(1)})`);
  const file = bench.finish({
    name: 'daml',
    question: 'reading and generating the Splice DAR: readDar cold and warm, the codegen process',
    mode: m,
    fixture: { dar, runs, warmRuns, packages, files },
    rows,
  });
  log(`daml: wrote ${file}`);
}

main();
