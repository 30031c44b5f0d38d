/**
 * Question: where does a WebSocket catch-up spend its time — the client, the participant, or the socket
 * between them — against one streamed HTTP read of the same range?
 *
 * Fixture: per build, two sandboxes in their own processes seeded alike (`--seed-payload-bytes 3800`,
 * ~4.7 KB per element, as in tail.bench.ts): buffered (the WebSocket stream is served the same in both
 * modes) and streamed (the one-shot HTTP read). Each run is a fresh client process, the variants in rounds
 * (A, B, C, A, B, C, …) so that the machine's load hits them alike:
 *
 * - `websocket`: `tailUpdates(client, { transport: 'websocket' })` from offset 0 until `--updates` updates
 *   were emitted (validated);
 * - `websocket-read`: one `client.updates(…, { transport: 'websocket' })` of the same range (bounded, validated): the WebSocket
 *   transport without the tail's read engine, the same level as `one-shot`;
 * - `one-shot`: one `client.updates()` of the same range from the streamed sandbox (validated);
 * - `raw-ws`: a bare `ws` client that sends the request frame and counts frames (no parsing): what the
 *   participant and the socket can deliver, the ceiling of the WebSocket variant.
 *
 * Reported per variant: updates/s; the client's CPU per element (`process.cpuUsage()` of the child over the
 * read); the participant's CPU per element over the same interval (/proc/<pid>/stat of the sandbox); and the
 * wall time per element. On two cores a read that overlaps both sides perfectly takes max(client, participant)
 * per element; what is above that is time both wait (the socket, the scheduler, the machine's other jobs).
 *
 * `--before=DIR` (the root of another built tree, with node_modules) runs the same variants against that
 * build's sandboxes and client too, in the same rounds. `--profile=DIR` writes `--cpu-prof` profiles of every
 * child and of the sandboxes (at their exit) into DIR.
 *
 *     npm --prefix benchmarks run build && node benchmarks/node_modules/.bench-build/tail/websocket-breakdown.bench.js [--runs=5] [--updates=30000] [--variants=websocket,websocket-read,one-shot,raw-ws] [--before=DIR] [--profile=DIR]
 *
 * Writes benchmarks/results/websocket-breakdown.json (not part of `run-all`: it explains the WebSocket
 * catch-up row of tail.bench.ts).
 */
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { log, numberOption, option } from '../lib/args.js';
import { startBenchRun } from '../lib/bench-run.js';
import { processCpuMs } from '../lib/cpu.js';
import { load } from '../lib/machine.js';
import { repoRoot } from '../lib/paths.js';
import { startSandboxProcess, type SandboxProcess } from '../lib/proc.js';
import { figure, ratio, table, type Row } from '../lib/report.js';
import { updatesRequest, wildcardUpdateFormat } from '../lib/updates-request.js';
import type * as LedgerRxModule from 'ledger-rx';

/** The library's entry point, imported from the root of the build measured. */
type LedgerRx = typeof LedgerRxModule;

const self = fileURLToPath(import.meta.url);

type Variant = 'websocket' | 'websocket-read' | 'one-shot' | 'raw-ws';
const variantLabel: Record<Variant, string> = {
  websocket: 'tailUpdates over WebSocket',
  'websocket-read': 'client.updates(websocket) bounded (WebSocket, no tail engine)',
  'one-shot': 'client.updates() one-shot (streamed HTTP)',
  'raw-ws': 'bare ws client counting frames (no parsing)',
};

interface ChildResult {
  readonly elements: number;
  readonly ms: number;
  readonly cpuMicros: number;
}

interface RunSample extends ChildResult {
  /** The participant's CPU over the child's run (from its start to its exit), ms. */
  readonly sandboxCpuMs: number;
}

/** A built tree to measure: its root (with node_modules and dist/) and a label. */
interface Build {
  readonly label: string;
  readonly root: string;
}

/** The part of `ws`'s client the `raw-ws` child uses (the benchmarks do not depend on `ws`'s types). */
type RawWebSocketClass = new (url: string, protocols: string[], options: { perMessageDeflate: boolean }) => {
  on(event: string, listener: (...args: unknown[]) => void): void;
  send(text: string): void;
  terminate(): void;
};

/** The child: one read of `count` updates, its wall time and own CPU over the read. */
async function child(variant: Variant, url: string, count: number, root: string): Promise<ChildResult> {
  const lib = (await import(join(root, 'dist', 'index.js'))) as LedgerRx;
  const client = lib.createLedgerClient({ baseUrl: url });
  const end = (await client.ledgerEnd()).offset ?? 0;
  let elements = 0;
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  if (variant === 'raw-ws') {
    const { WebSocket } = (await import(join(root, 'node_modules', 'ws', 'wrapper.mjs'))) as { WebSocket: RawWebSocketClass };
    await new Promise<void>((resolve, reject) => {
      const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/v2/updates`, ['daml.ws.auth'], { perMessageDeflate: false });
      ws.on('open', () => ws.send(JSON.stringify(updatesRequest(0, end))));
      ws.on('message', () => {
        if (elements === count) return;
        if (++elements === count) {
          ws.terminate();
          resolve();
        }
      });
      ws.on('close', () => resolve());
      ws.on('error', reject);
    });
  } else {
    await new Promise<void>((resolve, reject) => {
      const source =
        variant === 'websocket'
          ? lib.tailUpdates(client, { beginExclusive: 0, updateFormat: wildcardUpdateFormat(), transport: 'websocket' })
          : variant === 'websocket-read'
            ? client.updates(updatesRequest(0, end), { transport: 'websocket' })
            : client.updates(updatesRequest(0, end), { limit: count });
      const subscription = source.subscribe({
        next: () => {
          if (elements === count) return; // frames read in the same chunk as the last one counted
          if (++elements === count) {
            resolve();
            queueMicrotask(() => subscription.unsubscribe());
          }
        },
        error: reject,
        complete: () => resolve(),
      });
    });
  }
  const cpu = process.cpuUsage(c0);
  const ms = performance.now() - t0;
  await client.close();
  return { elements, ms, cpuMicros: cpu.user + cpu.system };
}

/** Runs one child to its end; the participant's CPU is read from /proc just before and after. */
function runChild(build: Build, variant: Variant, sandbox: SandboxProcess, count: number, profileDir: string): Promise<RunSample> {
  const nodeArgs = profileDir === '' ? [] : ['--cpu-prof', `--cpu-prof-dir=${join(profileDir, `${build.label}-${variant}`)}`];
  const before = processCpuMs(sandbox.pid);
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [...nodeArgs, self, `--child=${variant}`, `--url=${sandbox.url}`, `--count=${count}`, `--root=${build.root}`], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    p.stdout.setEncoding('utf8');
    p.stdout.on('data', (c: string) => (out += c));
    p.on('error', reject);
    p.on('close', (code) => {
      const sandboxCpuMs = processCpuMs(sandbox.pid) - before;
      if (code !== 0) {
        reject(new Error(`child ${variant} exited with ${code}`));
        return;
      }
      resolve({ ...(JSON.parse(out.trim().split('\n').pop() ?? '') as ChildResult), sandboxCpuMs });
    });
  });
}

async function driver(): Promise<void> {
  const run = startBenchRun();
  const runs = numberOption('runs', 5);
  const updates = numberOption('updates', 30_000);
  const variants = option('variants', 'websocket,websocket-read,one-shot,raw-ws').split(',') as Variant[];
  for (const v of variants) if (!(v in variantLabel)) throw new Error(`--variants: ${v} is not websocket, websocket-read, one-shot or raw-ws`);
  const beforeRoot = option('before', '');
  const profileDir = option('profile', '');
  const builds: Build[] = [{ label: beforeRoot === '' ? 'ledger-rx' : 'after', root: repoRoot }];
  if (beforeRoot !== '') builds.unshift({ label: 'before', root: beforeRoot });
  const payload = 3800;
  const seed = Math.ceil((updates / 0.9) * 1.08);
  const common = ['--port', '0', '--seed', String(seed), '--seed-payload-bytes', String(payload), '--request-timeout-ms', '3600000'];
  const sandboxes = new Map<Build, { buffered: SandboxProcess; streamed: SandboxProcess }>();
  const samples = new Map<string, RunSample[]>();
  const key = (b: Build, v: Variant) => `${b.label}/${v}`;
  try {
    for (const build of builds) {
      const script = join(build.root, 'dist', 'cli', 'main.js');
      const profile = (mode: string) => (profileDir === '' ? [] : ['--cpu-prof', `--cpu-prof-dir=${join(profileDir, `${build.label}-sandbox-${mode}`)}`]);
      if (profileDir !== '') mkdirSync(profileDir, { recursive: true });
      const [buffered, streamed] = await Promise.all([
        startSandboxProcess(['sandbox', ...common], { script, nodeArgs: profile('buffered') }),
        startSandboxProcess(['sandbox', ...common, '--response-mode', 'streamed'], { script, nodeArgs: profile('streamed') }),
      ]);
      sandboxes.set(build, { buffered, streamed });
    }
    log(`websocket-breakdown: ${runs} rounds of ${variants.join(', ')} over ${builds.map((b) => `${b.label} (${b.root})`).join(', ')}, ${updates} updates (seed ${seed}), load ${load()}`);
    for (let r = 0; r < runs; r++) {
      const line: string[] = [];
      for (const build of builds) {
        const s = sandboxes.get(build) as { buffered: SandboxProcess; streamed: SandboxProcess };
        for (const variant of variants) {
          const sample = await runChild(build, variant, variant === 'one-shot' ? s.streamed : s.buffered, updates, profileDir);
          if (sample.elements !== updates) throw new Error(`${variant}: ${sample.elements} elements, expected ${updates} (seed too small?)`);
          const list = samples.get(key(build, variant)) ?? [];
          list.push(sample);
          samples.set(key(build, variant), list);
          line.push(`${build.label}/${variant} ${(sample.elements / (sample.ms / 1000)).toFixed(0)}/s`);
        }
      }
      log(`round ${r + 1}/${runs}: ${line.join(', ')}; load ${load()}`);
    }
  } finally {
    await Promise.all([...sandboxes.values()].flatMap((s) => [s.buffered.stop(), s.streamed.stop()]));
  }

  const rows: Row[] = [];
  const group = `WebSocket catch-up breakdown, ${updates.toLocaleString('en-US')} updates`;
  for (const build of builds) {
    const who = builds.length > 1 ? `${build.label}: ` : '';
    const shot = samples.get(key(build, 'one-shot'));
    const shotRate = shot === undefined ? undefined : figure(shot.map((x) => x.elements / (x.ms / 1000))).median;
    for (const variant of variants) {
      const list = samples.get(key(build, variant)) ?? [];
      const subject = `${who}${variantLabel[variant]}`;
      const rate = figure(list.map((x) => x.elements / (x.ms / 1000)));
      const note = variant !== 'one-shot' && shotRate !== undefined ? `${ratio(rate.median, shotRate)} of the one-shot read` : undefined;
      rows.push({ group, subject, metric: 'updates/s', value: rate, ...(note === undefined ? {} : { note }) });
      rows.push({ group, subject, metric: 'wall per element, µs', value: figure(list.map((x) => (x.ms * 1000) / x.elements)), digits: 1 });
      rows.push({ group, subject, metric: 'client CPU per element, µs', value: figure(list.map((x) => x.cpuMicros / x.elements)), digits: 1 });
      rows.push({ group, subject, metric: 'participant CPU per element, µs', value: figure(list.map((x) => (x.sandboxCpuMs * 1000) / x.elements)), digits: 1 });
    }
  }
  process.stdout.write(`${table(rows)}\n`);
  const file = run.finish({
    name: 'websocket-breakdown',
    question: 'WebSocket catch-up vs one streamed HTTP read: client, participant and socket time per element',
    mode: 'full',
    fixture: { runs, updates, seed, seedPayloadBytes: payload, variants, builds: builds.map((b) => ({ label: b.label, root: b.root })) },
    rows,
    extra: { samples: Object.fromEntries(samples) },
  });
  log(`websocket-breakdown: wrote ${file}`);
}

const childVariant = option('child', '');
if (childVariant !== '') {
  const result = await child(childVariant as Variant, option('url', ''), numberOption('count', 0), option('root', repoRoot));
  process.stdout.write(`${JSON.stringify(result)}\n`);
} else await driver();
