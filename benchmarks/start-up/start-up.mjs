/**
 * Start-up cost of ledger-rx: N cold processes per figure, one after the other, medians and minimums.
 *
 *     npm run build && node benchmarks/start-up/start-up.mjs [--runs=15] [--dist=/path/to/dist] [--json=out.json]
 *
 * Figures (wall time; CPU time of the process where it says so):
 * - `node -e 0`: the floor of any process on this machine.
 * - `import 'ledger-rx'`: time of `await import(dist/index.js)` measured inside a fresh process (wall and
 *   the process's CPU time for it), and the same for its two peers alone (`rxjs` + `zod`), which an
 *   application using ledger-rx loads anyway.
 * - `ledger-rx --version`: the whole process, spawn to exit.
 * - cold first element: in a fresh process, from `createLedgerClient` (after the import) to the first
 *   element of `client.updates()` from an embedded sandbox running in another process.
 * `--dist` measures another build (e.g. a worktree of an older commit) for a before/after comparison.
 */
import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const arg = (name, fallback) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dist = resolve(arg('dist', join(repo, 'dist')));
const runs = Number(arg('runs', '15'));
const node = process.execPath;

const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return { median: s[Math.floor(s.length / 2)], min: s[0], max: s[s.length - 1] };
};
const wall = (args, options = {}) => {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(node, args, { encoding: 'utf8', ...options });
  if (r.status !== 0) throw new Error(`${args.join(' ')} failed: ${r.stderr}`);
  return { ms: Number(process.hrtime.bigint() - t0) / 1e6, stdout: r.stdout };
};
/** A fresh process that imports `specifiers` in order and prints the wall and CPU milliseconds of that. */
const timedImport = (specifiers) => {
  const code = `const c0 = process.cpuUsage(); const t0 = performance.now();
    for (const s of ${JSON.stringify(specifiers)}) await import(s);
    const c = process.cpuUsage(c0); process.stdout.write(JSON.stringify({ wall: performance.now() - t0, cpu: (c.user + c.system) / 1000 }));`;
  return JSON.parse(wall(['--input-type=module', '-e', code], { cwd: repo }).stdout);
};

const figures = {};
const record = (name, values) => {
  figures[name] = stats(values);
  const f = figures[name];
  console.log(`${name.padEnd(44)} median ${f.median.toFixed(1).padStart(7)} ms   min ${f.min.toFixed(1).padStart(7)}   max ${f.max.toFixed(1).padStart(7)}`);
};

const index = join(dist, 'index.js');
const peers = ['rxjs', 'zod'];
const samples = { floor: [], importWall: [], importCpu: [], peersWall: [], peersCpu: [], version: [] };
for (let i = 0; i < runs; i++) {
  // interleaved, so that a change in the machine's speed touches every figure alike
  samples.floor.push(wall(['-e', '0']).ms);
  const ours = timedImport([index]);
  samples.importWall.push(ours.wall);
  samples.importCpu.push(ours.cpu);
  const theirs = timedImport(peers);
  samples.peersWall.push(theirs.wall);
  samples.peersCpu.push(theirs.cpu);
  samples.version.push(wall([join(dist, 'cli', 'main.js'), '--version']).ms);
}
console.log(`dist: ${dist}, ${runs} cold processes per figure, load ${(await import('node:os')).loadavg().map((l) => l.toFixed(1)).join(' ')}`);
record('node -e 0 (process)', samples.floor);
record("import 'ledger-rx' (in process, wall)", samples.importWall);
record("import 'ledger-rx' (in process, CPU)", samples.importCpu);
record('import rxjs + zod only (in process, wall)', samples.peersWall);
record('import rxjs + zod only (in process, CPU)', samples.peersCpu);
record('ledger-rx --version (process)', samples.version);

// cold first element over HTTP from a sandbox in another process
const sandbox = spawn(node, [join(dist, 'cli', 'main.js'), 'sandbox', '--seed', '3'], { stdio: ['ignore', 'pipe', 'inherit'] });
const url = await new Promise((ok, fail) => {
  let text = '';
  sandbox.stdout.on('data', (d) => {
    text += d;
    const m = /listening on (\S+)/.exec(text);
    if (m) ok(m[1]);
  });
  sandbox.on('exit', (code) => fail(new Error(`sandbox exited ${code}`)));
});
const firstCode = `const { createLedgerClient, updateFormat } = await import(${JSON.stringify(index)});
  const { firstValueFrom } = await import('rxjs');
  const t0 = performance.now();
  const client = createLedgerClient({ baseUrl: ${JSON.stringify(url)} });
  const format = updateFormat().transactions((t) => t.anyParty()).build();
  await firstValueFrom(client.updates({ beginExclusive: 0, updateFormat: format }));
  const ms = performance.now() - t0;
  await client.close();
  process.stdout.write(String(ms));`;
const first = [];
for (let i = 0; i < runs; i++) first.push(Number(wall(['--input-type=module', '-e', firstCode], { cwd: repo }).stdout));
sandbox.kill('SIGINT');
record('cold first element after createLedgerClient', first);

const out = arg('json', undefined);
if (out) writeFileSync(out, `${JSON.stringify({ date: new Date().toISOString(), dist, runs, figures }, null, 2)}\n`);
