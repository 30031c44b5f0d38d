/**
 * Question: how does `tailUpdates` do against a participant that answers like the real one (buffered lists,
 * 200-element cap, 500 ms list wait), over each transport it offers — the WebSocket stream (`GET
 * /v2/updates`), the paged read (`get-updates-page`) and the HTTP list (`POST /v2/updates`)? Catch-up speed,
 * live latency, and memory (client and participant) under a slow consumer, the transports compared in one run.
 *
 * Fixture: two sandbox participants, each in its own process, seeded alike (`--seed N --seed-payload-bytes
 * 3800`, ~4.7 KB per element): A in the default buffered mode, B in streamed mode. Every client runs in a
 * fresh process. Each part runs every transport of `--transports` (default `websocket,page,list`), in
 * rounds, so that background load hits them alike. Measured:
 *   - catch-up: `tailUpdates(client, {beginExclusive: 0, transport})` on A until 10^5 updates were emitted
 *     (default page/limit of 200 for `page` and `list`), against the one-shot streamed read of the same
 *     updates on B (`client.updates({0, end}, {limit: 10^5})`); all validated;
 *   - live latency: a tail of A from the ledger end; 1,000 `client.submit` (one Iou create each) at 50/s from
 *     the same process; latency = time from the submit's promise resolving (accepted) to the tail emitting
 *     the transaction with that command id (0 when the update was emitted first); p50 and p99 per run. The
 *     `page` tail polls every `pollIntervalMs` (default 200) once caught up, which bounds its latency;
 *   - slow consumer: the tail of A from the start with `handler` taking 1 ms per update (a timer), over 10^5
 *     updates, sampling the client's RSS every second in the client and the participant's RSS (VmRSS) every
 *     second from the driver (no forced GC, so the samples show V8's sawtooth). Flat means: the peak RSS of
 *     the second half is at most 16 MiB above that of the first half, and the heap retained after a full GC
 *     at the end is at most 4 MiB above the one after a full GC at 10% of the run; for the participant, its
 *     peak RSS during the run is at most 16 MiB above its RSS when the run started.
 *
 * Run (after the root `npm run build`):
 *
 *     npm --prefix benchmarks run build && node benchmarks/node_modules/.bench-build/tail/tail.bench.js [--quick] [--runs=3] [--transports=websocket,page,list] [--parts=catchup,latency,slow]
 *
 * Writes benchmarks/results/tail.json; the full table is in benchmarks/README.md.
 *
 * Latest figures: benchmarks/results/tail.json and the table in benchmarks/README.md (not repeated here,
 * so that they cannot go stale).
 */
import { fileURLToPath } from 'node:url';
import { tailUpdates } from 'ledger-rx';
import type { LedgerClient, Transport } from 'ledger-rx';
import { log, mode, numberOption, option } from '../lib/args.js';
import { histogram, measureLatency, type LatencySample } from '../lib/latency.js';
import { MiB, procStatusBytes, runJsonChild, startSandboxProcess, type SandboxProcess } from '../lib/proc.js';
import { atLeast, atMost, figure, quantile, ratio, type Figure, type Row } from '../lib/report.js';
import { startBenchRun } from '../lib/bench-run.js';
import { runClientChild } from '../lib/client-child.js';
import { updatesRequest, wildcardUpdateFormat } from '../lib/updates-request.js';

/** A transport one request goes over (every `Transport` but the operators' `'auto'`). */
type RequestTransport = Exclude<Transport, 'auto'>;

interface ReadSample {
  readonly elements: number;
  readonly ms: number;
  readonly firstMs: number;
  readonly peakRss: number;
}

interface SlowSample {
  readonly elements: number;
  readonly ms: number;
  /** Heap used right after a forced full GC at 10% of the run (after warm-up) and at the end, MiB. */
  readonly retainedAfterWarmup: number;
  readonly retainedAtEnd: number;
  /** `[seconds since start, rss MiB, heapUsed MiB, elements so far]` every second. */
  readonly series: readonly (readonly [number, number, number, number])[];
  readonly peakRss: number;
}

/** Child: catch-up via `tailUpdates` over `transport` until `count` updates were emitted. */
function catchUp(client: LedgerClient, count: number, transport: RequestTransport): Promise<ReadSample> {
  return new Promise((resolve, reject) => {
    let n = 0;
    let firstMs = -1;
    const t0 = performance.now();
    const subscription = tailUpdates(client, { beginExclusive: 0, updateFormat: wildcardUpdateFormat(), transport }).subscribe({
      next: () => {
        if (n++ === 0) firstMs = performance.now() - t0;
        if (n === count) {
          const ms = performance.now() - t0;
          subscription.unsubscribe();
          resolve({ elements: n, ms, firstMs, peakRss: process.resourceUsage().maxRSS * 1024 });
        }
      },
      error: reject,
    });
  });
}

/** Child: one streamed read of `count` updates. */
async function oneShot(client: LedgerClient, count: number): Promise<ReadSample> {
  const end = (await client.ledgerEnd()).offset ?? 0;
  return new Promise((resolve, reject) => {
    let n = 0;
    let firstMs = -1;
    const t0 = performance.now();
    client.updates(updatesRequest(0, end), { limit: count }).subscribe({
      next: () => {
        if (n++ === 0) firstMs = performance.now() - t0;
      },
      error: reject,
      complete: () => resolve({ elements: n, ms: performance.now() - t0, firstMs, peakRss: process.resourceUsage().maxRSS * 1024 }),
    });
  });
}

/** Child: `count` submissions at `rate`/s while tailing from the ledger end over `transport`. */
async function latency(client: LedgerClient, count: number, rate: number, transport: RequestTransport): Promise<LatencySample> {
  let caughtUp!: () => void;
  const ready = new Promise<void>((resolve) => (caughtUp = resolve));
  const tail = tailUpdates(client, {
    beginExclusive: 'ledger-end',
    updateFormat: wildcardUpdateFormat(),
    transport,
    onStatus: (s) => {
      if (s.type === 'caught-up') caughtUp();
    },
  });
  return measureLatency(client, tail, { count, rate, ready, label: 'tail latency' });
}

/** Child: a tail over `transport` from the start with a 1 ms handler, sampling memory every second. */
function slowConsumer(client: LedgerClient, count: number, transport: RequestTransport): Promise<SlowSample> {
  return new Promise((resolve, reject) => {
    const series: [number, number, number, number][] = [];
    const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
    const retained = () => {
      gc();
      return Math.round((process.memoryUsage().heapUsed / MiB) * 10) / 10;
    };
    let retainedAfterWarmup = 0;
    let n = 0;
    const t0 = performance.now();
    const sample = () => {
      const m = process.memoryUsage();
      series.push([Math.round((performance.now() - t0) / 100) / 10, Math.round((m.rss / MiB) * 10) / 10, Math.round((m.heapUsed / MiB) * 10) / 10, n]);
    };
    sample();
    const timer = setInterval(sample, 1000);
    const subscription = tailUpdates(client, {
      beginExclusive: 0,
      updateFormat: wildcardUpdateFormat(),
      transport,
      handler: () => new Promise<void>((done) => setTimeout(done, 1)),
    }).subscribe({
      next: () => {
        if (++n === Math.floor(count / 10)) retainedAfterWarmup = retained();
        if (n === count) {
          subscription.unsubscribe();
          clearInterval(timer);
          sample();
          const ms = performance.now() - t0;
          resolve({ elements: n, ms, retainedAfterWarmup, retainedAtEnd: retained(), series, peakRss: process.resourceUsage().maxRSS * 1024 });
        }
      },
      error: (e: unknown) => {
        clearInterval(timer);
        reject(e);
      },
    });
  });
}

async function driver(): Promise<void> {
  const run = startBenchRun();
  const m = mode();
  const runs = numberOption('runs', m === 'quick' ? 1 : 3);
  const updates = numberOption('updates', m === 'quick' ? 10_000 : 100_000);
  const submissions = numberOption('submissions', m === 'quick' ? 200 : 1000);
  const slowUpdates = numberOption('slow-updates', m === 'quick' ? 10_000 : 100_000);
  const parts = option('parts', 'catchup,latency,slow').split(',');
  const transports = option('transports', 'websocket,page,list').split(',').map(transportOption);
  const payload = 3800;
  const seed = Math.ceil((Math.max(updates, slowUpdates) / 0.9) * 1.08);
  const self = fileURLToPath(import.meta.url);
  const common = ['--port', '0', '--seed', String(seed), '--seed-payload-bytes', String(payload), '--request-timeout-ms', '3600000'];
  log(`tail: starting two sandboxes (seed ${seed}, payload ${payload} B): buffered and streamed`);
  const [buffered, streamed] = await Promise.all([startSandboxProcess(common), startSandboxProcess([...common, '--response-mode', 'streamed'])]);
  const rows: Row[] = [];
  const extra: Record<string, unknown> = {};
  const stopAll = async (...s: SandboxProcess[]) => Promise.all(s.map((x) => x.stop()));
  try {
    if (parts.includes('catchup')) {
      const tail = new Map<RequestTransport, ReadSample[]>(transports.map((t) => [t, []]));
      const shot: ReadSample[] = [];
      for (let r = 0; r < runs; r++) {
        const b = await runJsonChild<ReadSample>(self, ['--child=oneshot', `--url=${streamed.url}`, `--count=${updates}`]);
        shot.push(b);
        if (b.elements !== updates) throw new Error(`tail: the one-shot read returned ${b.elements} elements, expected ${updates} (seed too small?)`);
        const line = [`one-shot ${rate(b).toFixed(0)}/s`];
        for (const transport of transports) {
          const a = await runJsonChild<ReadSample>(self, ['--child=catchup', `--url=${buffered.url}`, `--count=${updates}`, `--transport=${transport}`]);
          tail.get(transport)?.push(a);
          line.push(`${transport} ${rate(a).toFixed(0)}/s`);
        }
        log(`tail catch-up round ${r + 1}/${runs}: ${line.join(', ')}`);
      }
      const group = `tail catch-up ${updates.toLocaleString('en-US')} updates`;
      const shotRate = figure(shot.map(rate));
      rows.push({ group, subject: 'client.updates() one-shot, streamed sandbox', metric: 'updates/s', value: shotRate });
      const rates = new Map(transports.map((t) => [t, figure((tail.get(t) ?? []).map(rate))]));
      const listRate = rates.get('list');
      for (const transport of transports) {
        const value = rates.get(transport) as Figure;
        const subject = `tailUpdates over ${transportLabel[transport]}, buffered sandbox`;
        const check =
          transport === 'websocket'
            ? atLeast(value.median, shotRate.median, 0.9, 'one-shot streamed read')
            : transport === 'page' && listRate !== undefined
              ? atLeast(value.median, listRate.median, 1, 'the list tail')
              : atLeast(value.median, shotRate.median, 0.5, 'one-shot streamed read');
        rows.push({ group, subject, metric: 'updates/s', value, check, note: `${ratio(value.median, shotRate.median)} of the one-shot read` });
        rows.push({ group, subject, metric: 'peak RSS, MiB', value: figure((tail.get(transport) ?? []).map((x) => x.peakRss / MiB)) });
      }
      extra['catchup'] = { tail: Object.fromEntries(tail), shot };
    }
    if (parts.includes('latency')) {
      const samples = new Map<RequestTransport, LatencySample[]>(transports.map((t) => [t, []]));
      for (let r = 0; r < runs; r++) {
        for (const transport of transports) {
          const s = await runJsonChild<LatencySample>(self, ['--child=latency', `--url=${buffered.url}`, `--count=${submissions}`, '--rate=50', `--transport=${transport}`]);
          if (s.seen !== submissions) throw new Error(`tail latency (${transport}): the tail saw ${s.seen} of ${submissions} submissions`);
          samples.get(transport)?.push(s);
          log(`tail latency round ${r + 1}/${runs}, ${transport}: p50 ${quantile(s.latencies, 0.5).toFixed(1)} ms, p99 ${quantile(s.latencies, 0.99).toFixed(1)} ms, max ${Math.max(...s.latencies).toFixed(1)} ms (${s.early} emitted before the submit resolved)`);
        }
      }
      const group = `tail live, ${submissions.toLocaleString('en-US')} submits at 50/s`;
      for (const transport of transports) {
        const runsOf = samples.get(transport) ?? [];
        const f50 = figure(runsOf.map((s) => quantile(s.latencies, 0.5)));
        const f99 = figure(runsOf.map((s) => quantile(s.latencies, 0.99)));
        const [max50, max99] = latencyTargets[transport];
        const subject = `${transportLabel[transport]}: submit accepted → emitted by the tail`;
        rows.push({ group, subject, metric: 'p50, ms', value: f50, digits: 1, ...(max50 === undefined ? {} : { check: atMost(f50.median, max50, 'ms', 1) }) });
        rows.push({ group, subject, metric: 'p99, ms', value: f99, digits: 1, ...(max99 === undefined ? {} : { check: atMost(f99.median, max99, 'ms', 1) }) });
        rows.push({ group, subject: `${transportLabel[transport]}: submit sent → emitted by the tail`, metric: 'p50, ms', value: figure(runsOf.map((s) => quantile(s.fromSend, 0.5))), digits: 1 });
      }
      extra['latency'] = Object.fromEntries([...samples].map(([t, list]) => [t, list.map((s) => ({ ...s, latencies: undefined, fromSend: undefined, histogram: histogram(s.latencies) }))]));
    }
    if (parts.includes('slow')) {
      const group = `tail slow consumer (1 ms/update), ${slowUpdates.toLocaleString('en-US')} updates`;
      const slow: Record<string, unknown> = {};
      for (const transport of transports) {
        // the participant's RSS, sampled from here while the client runs
        const sandboxSeries: number[] = [procStatusBytes(buffered.pid, 'VmRSS') / MiB];
        const sampler = setInterval(() => sandboxSeries.push(procStatusBytes(buffered.pid, 'VmRSS') / MiB), 1000);
        const s = await runJsonChild<SlowSample>(self, ['--child=slow', `--url=${buffered.url}`, `--count=${slowUpdates}`, `--transport=${transport}`], { nodeArgs: ['--expose-gc'] }).finally(() => clearInterval(sampler));
        sandboxSeries.push(procStatusBytes(buffered.pid, 'VmRSS') / MiB);
        const rss = s.series.map((x) => x[1]);
        const half = Math.floor(rss.length / 2);
        const firstPeak = Math.max(...rss.slice(0, half));
        const secondPeak = Math.max(...rss.slice(half));
        const heapGrowth = s.retainedAtEnd - s.retainedAfterWarmup;
        const flat = secondPeak - firstPeak <= 16 && heapGrowth <= 4;
        const sandboxGrowth = Math.max(...sandboxSeries) - (sandboxSeries[0] as number);
        const label = transportLabel[transport];
        log(`tail slow consumer, ${transport}: ${s.elements} updates in ${(s.ms / 1000).toFixed(1)} s, retained heap ${s.retainedAfterWarmup} → ${s.retainedAtEnd} MiB, RSS ${rss.map((x) => x.toFixed(0)).join(' ')}; sandbox RSS ${sandboxSeries.map((x) => x.toFixed(0)).join(' ')}`);
        rows.push({ group, subject: `${label}: tailUpdates with handler`, metric: 'updates/s', value: figure([s.elements / (s.ms / 1000)]) });
        rows.push({ group, subject: `${label}: client RSS sampled every second`, metric: 'RSS, MiB', value: figure(rss), digits: 1, note: `by quarter, max: ${quarters(rss).join(' / ')}` });
        rows.push({
          group,
          subject: `${label}: client memory flat?`,
          metric: 'peak RSS 2nd half − 1st half; retained heap end − 10%, MiB',
          value: figure([secondPeak - firstPeak]),
          digits: 1,
          note: `retained heap ${heapGrowth >= 0 ? '+' : ''}${heapGrowth.toFixed(1)} MiB`,
          check: { target: 'flat: ≤ +16 MiB RSS, ≤ +4 MiB heap', actual: `${(secondPeak - firstPeak).toFixed(1)} / ${heapGrowth.toFixed(1)} MiB`, pass: flat },
        });
        rows.push({
          group,
          subject: `${label}: participant RSS growth`,
          metric: 'peak RSS during the run − at its start, MiB',
          value: figure([sandboxGrowth]),
          digits: 1,
          note: `by quarter, max: ${quarters(sandboxSeries).join(' / ')}`,
          check: atMost(sandboxGrowth, 16, 'MiB', 1),
        });
        slow[transport] = { ...s, sandboxRssSeries: sandboxSeries.map((x) => Math.round(x * 10) / 10) };
      }
      extra['slow'] = slow;
    }
    extra['sandboxPeakRssMiB'] = { buffered: Math.round(buffered.peakRss() / MiB), streamed: Math.round(streamed.peakRss() / MiB) };
  } finally {
    await stopAll(buffered, streamed);
  }
  const file = run.finish({
    name: 'tail',
    question: 'tailUpdates against a buffered participant over each transport: catch-up, live latency, slow consumer memory',
    mode: m,
    fixture: { seed, seedPayloadBytes: payload, updates, submissions, slowUpdates, runs, transports, sandbox: 'buffered: 200-element cap, 500 ms list wait' },
    rows,
    extra,
  });
  log(`tail: wrote ${file}`);
}

/** How each transport is named in the table. */
const transportLabel: Record<RequestTransport, string> = { websocket: 'WebSocket', page: 'get-updates-page', list: 'HTTP list (pages of 200)' };

/**
 * The live-latency targets `[p50, p99]` (ms) per transport: the WebSocket's from issue 11; the list's as
 * before; none for `page`, whose latency is its poll interval by design.
 */
const latencyTargets: Record<RequestTransport, readonly [number | undefined, number | undefined]> = { websocket: [5, 25], page: [undefined, undefined], list: [60, 250] };

function transportOption(value: string): RequestTransport {
  if (value === 'websocket' || value === 'page' || value === 'list') return value;
  throw new Error(`--transport(s): ${value} is not websocket, page or list`);
}

const rate = (x: ReadSample) => x.elements / (x.ms / 1000);

/** The largest value of each quarter of `values`, rounded. */
function quarters(values: readonly number[]): string[] {
  const q = Math.max(1, Math.ceil(values.length / 4));
  const out: string[] = [];
  for (let i = 0; i < values.length; i += q) out.push(Math.max(...values.slice(i, i + q)).toFixed(0));
  return out;
}

if (option('child', '') !== '') {
  const count = numberOption('count', 0);
  const transport = () => transportOption(option('transport', 'list'));
  await runClientChild({
    catchup: (client) => catchUp(client, count, transport()),
    oneshot: (client) => oneShot(client, count),
    latency: (client) => latency(client, count, numberOption('rate', 50), transport()),
    slow: (client) => slowConsumer(client, count, transport()),
  });
} else await driver();
