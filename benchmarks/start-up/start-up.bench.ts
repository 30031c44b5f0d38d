/**
 * Start-up cost of ledger-rx: cold processes, one after the other, interleaved so that a change in the
 * machine's speed touches every figure alike. Medians with min–max.
 *
 *     node benchmarks/node_modules/.bench-build/start-up/start-up.bench.js [--runs=15] [--before=DIR] [--quick]
 *
 * Figures, per build:
 * - `import 'ledger-rx'`: `await import(<dist>/index.js)` timed inside a fresh process, wall and the process's
 *   CPU time for it; and the same with its two peers (`rxjs`, `zod`) imported first, which is what ledger-rx
 *   itself adds to an application that loads them anyway.
 * - `ledger-rx --version`: the whole process, spawn to exit.
 * - `createLedgerClient`, then the cold first element: in a fresh process, after the import, the time
 *   `createLedgerClient` takes (it loads undici's connection pool), then from its return to the first element
 *   of `client.updates()` of a bounded read (`endInclusive` = the ledger end: the participant answers as soon
 *   as the range is read, with no idle wait; an open-ended list read waits for the participant's idle timeout,
 *   500 ms by default, whatever the client does) from a sandbox in another process; and the two together
 *   (what this figure was until 2026-11-25: whatever moves from one to the other shows in the sum).
 * - process start to the first element: the whole process, spawn to exit, of a script that imports `ledger-rx`
 *   and `rxjs`, creates a client, reads the first element of the same bounded read and exits at once
 *   (`process.exit(0)`, so the client's teardown is not counted). Target: ≤ 4× `node -e 0`, measured in the
 *   same rounds.
 * And once per round: `node -e 0` (the floor of any process), `import rxjs + zod` alone (the peers), and the
 * bare baseline of the first element: a process that imports rxjs and zod, loads the two undici modules the
 * client uses, sends the same request and `JSON.parse`s the whole answer, then exits (what any client on
 * these packages pays before it does anything of its own).
 *
 * `--before=DIR` measures a second build too (the root of a worktree of an older commit, built, with its
 * node_modules), alternating with this one in every round: before/after in the same run.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { log, mode, numberOption, option } from '../lib/args.js';
import { startBenchRun } from '../lib/bench-run.js';
import { load } from '../lib/machine.js';
import { repoRoot } from '../lib/paths.js';
import { startSandboxProcess } from '../lib/proc.js';
import { atMost, figure, ratio, type Row } from '../lib/report.js';

/** A built tree to measure: its root (with node_modules) and a label. */
interface Build {
  readonly label: string;
  readonly root: string;
}

/** The samples of one build. */
interface Samples {
  importWall: number[];
  importCpu: number[];
  ownWall: number[];
  ownCpu: number[];
  version: number[];
  create: number[];
  first: number[];
  createAndFirst: number[];
  processToFirst: number[];
}

const peers = ['rxjs', 'zod'];

/** Runs `node args` in `cwd` to its end; its wall time in ms and its stdout. */
function run(args: readonly string[], cwd: string): { ms: number; stdout: string } {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { encoding: 'utf8', cwd });
  if (r.status !== 0) throw new Error(`node ${args.join(' ').slice(0, 200)} failed: ${r.stderr}`);
  return { ms: Number(process.hrtime.bigint() - t0) / 1e6, stdout: r.stdout };
}

/** A fresh process in `cwd` that imports `first`, then times the import of `measured`: wall and CPU ms. */
function timedImport(cwd: string, first: readonly string[], measured: readonly string[]): { wall: number; cpu: number } {
  const code = `for (const s of ${JSON.stringify(first)}) await import(s);
    const c0 = process.cpuUsage(); const t0 = performance.now();
    for (const s of ${JSON.stringify(measured)}) await import(s);
    const c = process.cpuUsage(c0);
    process.stdout.write(JSON.stringify({ wall: performance.now() - t0, cpu: (c.user + c.system) / 1000 }));`;
  return JSON.parse(run(['--input-type=module', '-e', code], cwd).stdout) as { wall: number; cpu: number };
}

/**
 * A fresh process: imports the build, then the ms `createLedgerClient` takes and the ms from its return to the
 * first element of a bounded read.
 */
function coldFirstElement(build: Build, url: string, end: number): { create: number; first: number } {
  const code = `const { createLedgerClient, updateFormat } = await import(${JSON.stringify(join(build.root, 'dist', 'index.js'))});
    const { firstValueFrom } = await import('rxjs');
    const t0 = performance.now();
    const client = createLedgerClient({ baseUrl: ${JSON.stringify(url)} });
    const t1 = performance.now();
    const format = updateFormat().transactions((t) => t.anyParty()).build();
    await firstValueFrom(client.updates({ beginExclusive: 0, endInclusive: ${end}, updateFormat: format }));
    const t2 = performance.now();
    await client.close();
    process.stdout.write(JSON.stringify({ create: t1 - t0, first: t2 - t1 }));`;
  return JSON.parse(run(['--input-type=module', '-e', code], build.root).stdout) as { create: number; first: number };
}

/** The request of the first-element figures: every update up to `end`, all parties, ACS delta. */
function boundedRequestCode(end: number): string {
  return `{ beginExclusive: 0, endInclusive: ${end}, updateFormat: { includeTransactions: { eventFormat: { filtersByParty: {}, filtersForAnyParty: { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: false } } } }] }, verbose: false }, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' } } }`;
}

/** A whole process, spawn to exit: imports the build and rxjs, creates a client, awaits the first element, exits. */
function processToFirstElement(build: Build, url: string, end: number): number {
  const code = `import { createLedgerClient } from ${JSON.stringify(join(build.root, 'dist', 'index.js'))};
    import { firstValueFrom } from 'rxjs';
    const client = createLedgerClient({ baseUrl: ${JSON.stringify(url)} });
    await firstValueFrom(client.updates(${boundedRequestCode(end)}));
    process.exit(0);`;
  return run(['--input-type=module', '-e', code], build.root).ms;
}

/** The bare baseline, spawn to exit: rxjs and zod imported, the same request through undici's own modules, the answer parsed whole. */
function bareFirstElement(url: string, end: number): number {
  const code = `import 'rxjs';
    import 'zod';
    import { createRequire } from 'node:module';
    const require = createRequire(import.meta.url);
    const Agent = require('undici/lib/dispatcher/agent.js');
    const request = require('undici/lib/api/api-request.js');
    const res = await request.call(new Agent(), { origin: ${JSON.stringify(url)}, path: '/v2/updates', method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(${boundedRequestCode(end)}) });
    if (JSON.parse(await res.body.text()).length === 0) throw new Error('no element');
    process.exit(0);`;
  return run(['--input-type=module', '-e', code], repoRoot).ms;
}

async function main(): Promise<void> {
  const bench = startBenchRun();
  const m = mode();
  const runs = numberOption('runs', m === 'quick' ? 3 : 15);
  const beforeRoot = option('before', '');
  const builds: Build[] = [{ label: beforeRoot === '' ? 'ledger-rx' : 'after', root: repoRoot }];
  if (beforeRoot !== '') builds.unshift({ label: 'before', root: beforeRoot });
  const samples = new Map<Build, Samples>(builds.map((b) => [b, { importWall: [], importCpu: [], ownWall: [], ownCpu: [], version: [], create: [], first: [], createAndFirst: [], processToFirst: [] }]));
  const floor: number[] = [];
  const bare: number[] = [];
  const peersWall: number[] = [];
  const peersCpu: number[] = [];

  // the sandbox of the current build; 3 transactions, read back bounded by the ledger end
  const sandbox = await startSandboxProcess(['--port', '0', '--seed', '3']);
  try {
    const end = ((await (await fetch(`${sandbox.url}/v2/state/ledger-end`)).json()) as { offset: number }).offset;
    log(`start-up: ${runs} rounds over ${builds.map((b) => `${b.label} (${b.root})`).join(', ')}, load ${load()}`);
    for (let i = 0; i < runs; i++) {
      floor.push(run(['-e', '0'], repoRoot).ms);
      bare.push(bareFirstElement(sandbox.url, end));
      const p = timedImport(repoRoot, [], peers);
      peersWall.push(p.wall);
      peersCpu.push(p.cpu);
      for (const build of builds) {
        const s = samples.get(build) as Samples;
        const index = join(build.root, 'dist', 'index.js');
        const all = timedImport(build.root, [], [index]);
        s.importWall.push(all.wall);
        s.importCpu.push(all.cpu);
        const own = timedImport(build.root, peers, [index]);
        s.ownWall.push(own.wall);
        s.ownCpu.push(own.cpu);
        s.version.push(run([join(build.root, 'dist', 'cli', 'main.js'), '--version'], build.root).ms);
        const cold = coldFirstElement(build, sandbox.url, end);
        s.create.push(cold.create);
        s.first.push(cold.first);
        s.createAndFirst.push(cold.create + cold.first);
        s.processToFirst.push(processToFirstElement(build, sandbox.url, end));
      }
    }
  } finally {
    await sandbox.stop();
  }

  const group = 'start-up';
  const rows: Row[] = [
    { group, subject: '`node -e 0` (the floor of a process)', metric: 'wall, ms', value: figure(floor), digits: 1 },
    { group, subject: 'import rxjs + zod alone (the peers)', metric: 'wall, ms', value: figure(peersWall), digits: 1 },
    { group, subject: 'import rxjs + zod alone (the peers)', metric: 'CPU, ms', value: figure(peersCpu), digits: 1 },
    {
      group,
      subject: 'bare baseline: rxjs + zod imported, the same request through undici, the answer JSON.parsed (whole process)',
      metric: 'wall, ms',
      value: figure(bare),
      digits: 1,
      note: `${ratio(figure(bare).median, figure(floor).median)} of node -e 0`,
    },
  ];
  const current = builds[builds.length - 1] as Build;
  for (const build of builds) {
    const s = samples.get(build) as Samples;
    const target = build === current;
    const who = builds.length > 1 ? `${build.label}: ` : '';
    rows.push(
      { group, subject: `${who}import 'ledger-rx'`, metric: 'wall, ms', value: figure(s.importWall), digits: 1, ...(target ? { check: atMost(figure(s.importWall).median, 80, 'ms') } : {}) },
      { group, subject: `${who}import 'ledger-rx'`, metric: 'CPU, ms', value: figure(s.importCpu), digits: 1 },
      { group, subject: `${who}import 'ledger-rx' after rxjs + zod (its own cost)`, metric: 'wall, ms', value: figure(s.ownWall), digits: 1 },
      { group, subject: `${who}import 'ledger-rx' after rxjs + zod (its own cost)`, metric: 'CPU, ms', value: figure(s.ownCpu), digits: 1 },
      { group, subject: `${who}ledger-rx --version (whole process)`, metric: 'wall, ms', value: figure(s.version), digits: 1, ...(target ? { check: atMost(figure(s.version).median, 150, 'ms') } : {}) },
      { group, subject: `${who}createLedgerClient (fresh process, after the import)`, metric: 'wall, ms', value: figure(s.create), digits: 1 },
      {
        group,
        subject: `${who}cold first element after createLedgerClient (bounded read)`,
        metric: 'wall, ms',
        value: figure(s.first),
        digits: 1,
        ...(target ? { check: atMost(figure(s.first).median, 15, 'ms') } : {}),
      },
      { group, subject: `${who}createLedgerClient + cold first element`, metric: 'wall, ms', value: figure(s.createAndFirst), digits: 1 },
      {
        group,
        subject: `${who}process start to the first element of a bounded read (whole process)`,
        metric: 'wall, ms',
        value: figure(s.processToFirst),
        digits: 1,
        ...(target
          ? { check: { target: '≤ 4× node -e 0', actual: ratio(figure(s.processToFirst).median, figure(floor).median), pass: figure(s.processToFirst).median <= 4 * figure(floor).median } }
          : { note: `${ratio(figure(s.processToFirst).median, figure(floor).median)} of node -e 0` }),
      },
    );
  }
  const file = bench.finish({
    name: 'start-up',
    question: "cold start: import 'ledger-rx', ledger-rx --version, the first element of a fresh client",
    mode: m,
    fixture: { runs, builds: builds.map((b) => ({ label: b.label, root: b.root })), sandbox: 'buffered, seed 3, read bounded by the ledger end' },
    extra: { samples: { floor, bare, peersWall, peersCpu, builds: Object.fromEntries(builds.map((b) => [b.label, samples.get(b)])) } },
    rows,
  });
  log(`start-up: wrote ${file}`);
}

await main();
