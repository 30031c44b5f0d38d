/**
 * Question: how fast does a service get its starting state, and how long does it wait to learn the outcome of
 * what it submits? Issue 12's numbers:
 *   - snapshot: `client.activeContracts` of 10^5 active contracts over each transport (the WebSocket stream
 *     `GET /v2/state/active-contracts`, the paged `GET /v2/state/active-contracts-page`, the HTTP list `POST
 *     /v2/state/active-contracts`), elements/s, time to the first entry, and peak RSS of the client and of
 *     the participant; beside it, in the same run, `tailUpdates` over WebSocket reading the 10^5 transactions
 *     that created those contracts (the same bytes of payload, as history instead of state);
 *   - outcome: `submitAndTrack` (subscribe to completions from the ledger end, submit, await the completion)
 *     at 50 commands/s, one independent call per command as a service would make them, latency from the call
 *     to the promise resolving, p50/p99, with completions over WebSocket and over the HTTP list; beside it
 *     the bare `client.submit` (the participant's acceptance, no outcome) at the same rate. One call before
 *     the measured ones warms the process up (module loading, connections), as in a running service; calls
 *     in flight together share one completion stream (submitAndTrack's `lingerMs`).
 *
 * Fixture: one sandbox participant in its own process (lib/sandbox-host.ts, buffered mode) holding 10^5
 * transactions of one Iou create each, nothing archived, so 10^5 active contracts (~1 KB per entry). Its list
 * limit is raised to 2·10^5 (`--max-list-elements`, the participant's `http-list-max-elements-limit`) so that
 * the list transport can read the whole set at all: with the default of 200 the list answers 413 and is for
 * small sets only. Every reader runs in a fresh process; transports alternate within each round so that
 * background load hits them alike. All reads validate each element (the client's default).
 *
 * Run (after the root `npm run build`):
 *
 *     npm --prefix benchmarks run build && node benchmarks/node_modules/.bench-build/acs/acs.bench.js [--quick] [--runs=3] [--contracts=100000] [--submissions=1000] [--parts=snapshot,track]
 *
 * Writes benchmarks/results/acs.json; the table is in benchmarks/README.md.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { submitAndTrack, tailUpdates } from 'ledger-rx';
import type { JsCommands, LedgerClient, Transport } from 'ledger-rx';
import { log, mode, numberOption, option } from '../lib/args.js';
import { histogram } from '../lib/latency.js';
import { MiB, procStatusBytes, runJsonChild, startSandboxProcess } from '../lib/proc.js';
import { figure, quantile, ratio, type Row } from '../lib/report.js';
import { startBenchRun } from '../lib/bench-run.js';
import { runClientChild } from '../lib/client-child.js';
import { buildDir } from '../lib/paths.js';
import { wildcardUpdateFormat } from '../lib/updates-request.js';

/** A transport one request goes over (every `Transport` but the operators' `'auto'`). */
type RequestTransport = Exclude<Transport, 'auto'>;

interface ReadSample {
  readonly elements: number;
  readonly ms: number;
  readonly firstMs: number;
  readonly peakRss: number;
  /** The offset the snapshot was taken at (snapshot reads only). */
  readonly activeAtOffset?: number;
}

interface TrackSample {
  readonly count: number;
  readonly committed: number;
  readonly failed: number;
  /** call → promise settled, ms, in call order. */
  readonly latencies: readonly number[];
  readonly maxInFlight: number;
}

const eventFormat = () => wildcardUpdateFormat().includeTransactions.eventFormat;

/** Child: the whole active set over `transport`. */
function snapshot(client: LedgerClient, transport: RequestTransport): Promise<ReadSample> {
  return new Promise((resolve, reject) => {
    let n = 0;
    let firstMs = -1;
    let activeAtOffset = -1;
    const t0 = performance.now();
    client
      .activeContracts(
        { eventFormat: eventFormat() },
        {
          transport,
          pageSize: 1000,
          onActiveAtOffset: (o) => {
            activeAtOffset = o;
          },
        },
      )
      .subscribe({
        next: () => {
          if (n++ === 0) firstMs = performance.now() - t0;
        },
        error: reject,
        complete: () => resolve({ elements: n, ms: performance.now() - t0, firstMs, peakRss: process.resourceUsage().maxRSS * 1024, activeAtOffset }),
      });
  });
}

/** Child: the `count` transactions that created the contracts, as history, by `tailUpdates` over WebSocket. */
function history(client: LedgerClient, count: number): Promise<ReadSample> {
  return new Promise((resolve, reject) => {
    let n = 0;
    let firstMs = -1;
    const t0 = performance.now();
    const subscription = tailUpdates(client, { beginExclusive: 0, updateFormat: wildcardUpdateFormat(), transport: 'websocket' }).subscribe({
      next: () => {
        if (n++ === 0) firstMs = performance.now() - t0;
        if (n === count) {
          subscription.unsubscribe();
          resolve({ elements: n, ms: performance.now() - t0, firstMs, peakRss: process.resourceUsage().maxRSS * 1024 });
        }
      },
      error: reject,
    });
  });
}

/**
 * Child: `count` commands at `rate`/s, each its own `submitAndTrack` call (completions over `transport`), or
 * with `transport` `none` a bare `client.submit`; the latency of each from the call to its promise settling.
 */
async function track(client: LedgerClient, count: number, rate: number, transport: 'websocket' | 'list' | 'none'): Promise<TrackSample> {
  const parties = await client.listParties();
  const alice = parties.partyDetails.find((p) => p.party.startsWith('Alice::'))?.party;
  if (alice === undefined) throw new Error('no Alice party on the sandbox');
  const run = `track-${process.pid}`;
  const latencies: number[] = new Array<number>(count).fill(-1);
  let committed = 0;
  let failed = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  const calls: Promise<void>[] = [];
  const iou = (commandId: string): JsCommands => ({
    commands: [{ CreateCommand: { templateId: '#ledger-rx-demo:Iou:Iou', createArguments: { issuer: alice, owner: alice, currency: 'USD', amount: '10.0000000000', observers: [] } } }],
    commandId,
    actAs: [alice],
    userId: 'participant_admin',
  });
  const call = (commands: JsCommands): Promise<unknown> => (transport === 'none' ? client.submit(commands) : submitAndTrack(client, commands, { transport, timeoutMs: 30_000 }));
  // warm-up, not measured: the first call of a process loads the WebSocket client and opens the connections
  await call(iou(`${run}-warm-up`));
  const t0 = performance.now();
  for (let i = 0; i < count; i++) {
    const wait = t0 + (i * 1000) / rate - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const started = performance.now();
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    const pending = call(iou(`${run}-${i}`));
    calls.push(
      pending.then(
        () => {
          committed++;
        },
        (e: unknown) => {
          failed++;
          if (failed <= 3) log(`acs track (${transport}): command ${i} failed: ${String(e)}`);
        },
      ).finally(() => {
        inFlight--;
        latencies[i] = performance.now() - started;
      }),
    );
  }
  await Promise.all(calls);
  return { count, committed, failed, latencies, maxInFlight };
}

async function driver(): Promise<void> {
  const run = startBenchRun();
  const m = mode();
  const runs = numberOption('runs', m === 'quick' ? 1 : 3);
  const contracts = numberOption('contracts', m === 'quick' ? 10_000 : 100_000);
  const submissions = numberOption('submissions', m === 'quick' ? 200 : 1000);
  const parts = option('parts', 'snapshot,track').split(',');
  const transports: readonly RequestTransport[] = ['websocket', 'page', 'list'];
  const self = fileURLToPath(import.meta.url);
  log(`acs: seeding a sandbox with ${contracts} active contracts (one Iou create per transaction)`);
  const sandbox = await startSandboxProcess([`--transactions=${contracts}`, '--events=1', `--max-list-elements=${2 * contracts}`], {
    script: join(buildDir, 'lib', 'sandbox-host.js'),
    readyTimeoutMs: 1_800_000,
  });
  const rows: Row[] = [];
  const extra: Record<string, unknown> = {};
  try {
    if (parts.includes('snapshot')) {
      const reads = new Map<RequestTransport, ReadSample[]>(transports.map((t) => [t, []]));
      const sandboxPeak = new Map<string, number[]>();
      const historyReads: ReadSample[] = [];
      const sampled = async (label: string, read: () => Promise<ReadSample>): Promise<ReadSample> => {
        const start = procStatusBytes(sandbox.pid, 'VmRSS');
        let peak = start;
        const sampler = setInterval(() => (peak = Math.max(peak, procStatusBytes(sandbox.pid, 'VmRSS'))), 250);
        try {
          return await read();
        } finally {
          clearInterval(sampler);
          const list = sandboxPeak.get(label) ?? [];
          list.push((Math.max(peak, procStatusBytes(sandbox.pid, 'VmRSS')) - start) / MiB);
          sandboxPeak.set(label, list);
        }
      };
      for (let r = 0; r < runs; r++) {
        const line: string[] = [];
        const h = await sampled('history', () => runJsonChild<ReadSample>(self, ['--child=history', `--url=${sandbox.url}`, `--count=${contracts}`]));
        if (h.elements !== contracts) throw new Error(`acs: the history read returned ${h.elements} of ${contracts}`);
        historyReads.push(h);
        line.push(`history ${rate(h).toFixed(0)}/s`);
        for (const transport of transports) {
          const s = await sampled(transport, () => runJsonChild<ReadSample>(self, ['--child=snapshot', `--url=${sandbox.url}`, `--transport=${transport}`]));
          if (s.elements !== contracts) throw new Error(`acs: the ${transport} snapshot returned ${s.elements} of ${contracts} contracts`);
          reads.get(transport)?.push(s);
          line.push(`${transport} ${rate(s).toFixed(0)}/s (first ${s.firstMs.toFixed(1)} ms, RSS ${(s.peakRss / MiB).toFixed(0)} MiB)`);
        }
        log(`acs snapshot round ${r + 1}/${runs}: ${line.join(', ')}`);
      }
      const group = `active contracts snapshot, ${contracts.toLocaleString('en-US')} contracts`;
      const historyRate = figure(historyReads.map(rate));
      rows.push({ group, subject: 'reference: the creating transactions, tailUpdates over WebSocket', metric: 'elements/s', value: historyRate });
      for (const transport of transports) {
        const samples = reads.get(transport) ?? [];
        const value = figure(samples.map(rate));
        const label = transportLabel[transport];
        rows.push({ group, subject: `client.activeContracts over ${label}`, metric: 'elements/s', value, note: `${ratio(value.median, historyRate.median)} of the history read` });
        rows.push({ group, subject: `${label}: first entry`, metric: 'ms', value: figure(samples.map((s) => s.firstMs)), digits: 1 });
        rows.push({ group, subject: `${label}: client peak RSS`, metric: 'MiB', value: figure(samples.map((s) => s.peakRss / MiB)) });
        rows.push({ group, subject: `${label}: participant RSS growth during the read`, metric: 'MiB', value: figure(sandboxPeak.get(transport) ?? [0]), digits: 1 });
      }
      extra['snapshot'] = { reads: Object.fromEntries(reads), history: historyReads, sandboxRssGrowthMiB: Object.fromEntries(sandboxPeak) };
    }
    if (parts.includes('track')) {
      const variants = ['websocket', 'list', 'none'] as const;
      const samples = new Map<string, TrackSample[]>(variants.map((v) => [v, []]));
      for (let r = 0; r < runs; r++) {
        for (const v of variants) {
          const s = await runJsonChild<TrackSample>(self, ['--child=track', `--url=${sandbox.url}`, `--count=${submissions}`, '--rate=50', `--transport=${v}`]);
          if (s.committed !== submissions) throw new Error(`acs track (${v}): ${s.committed} of ${submissions} committed, ${s.failed} failed`);
          samples.get(v)?.push(s);
          log(`acs track round ${r + 1}/${runs}, ${v}: p50 ${quantile(s.latencies, 0.5).toFixed(1)} ms, p99 ${quantile(s.latencies, 0.99).toFixed(1)} ms, max ${Math.max(...s.latencies).toFixed(1)} ms, at most ${s.maxInFlight} in flight`);
        }
      }
      const group = `command outcome, ${submissions.toLocaleString('en-US')} commands at 50/s`;
      for (const v of variants) {
        const list = samples.get(v) ?? [];
        const subject = v === 'none' ? 'reference: client.submit, accepted (no outcome)' : `submitAndTrack, completions over ${v === 'websocket' ? 'WebSocket' : 'the HTTP list'}: call → committed`;
        rows.push({ group, subject, metric: 'p50, ms', value: figure(list.map((s) => quantile(s.latencies, 0.5))), digits: 1 });
        rows.push({ group, subject, metric: 'p99, ms', value: figure(list.map((s) => quantile(s.latencies, 0.99))), digits: 1 });
      }
      extra['track'] = Object.fromEntries([...samples].map(([v, list]) => [v, list.map((s) => ({ ...s, latencies: undefined, histogram: histogram(s.latencies) }))]));
    }
    extra['sandboxPeakRssMiB'] = Math.round(sandbox.peakRss() / MiB);
  } finally {
    await sandbox.stop();
  }
  const file = run.finish({
    name: 'acs',
    question: 'the active-contract snapshot over each transport, and the latency of submitAndTrack',
    mode: m,
    fixture: { contracts, submissions, runs, transports, sandbox: `buffered, list limit ${2 * contracts}` },
    rows,
    extra,
  });
  log(`acs: wrote ${file}`);
}

/** How each transport is named in the table. */
const transportLabel: Record<RequestTransport, string> = { websocket: 'WebSocket', page: 'active-contracts-page (pages of 1,000)', list: 'HTTP list (one list)' };

function snapshotTransport(value: string): RequestTransport {
  if (value === 'websocket' || value === 'page' || value === 'list') return value;
  throw new Error(`--transport: ${value} is not websocket, page or list`);
}

const rate = (x: ReadSample) => x.elements / (x.ms / 1000);

function trackTransport(value: string): 'websocket' | 'list' | 'none' {
  if (value === 'websocket' || value === 'list' || value === 'none') return value;
  throw new Error(`--transport: ${value} is not websocket, list or none`);
}

if (option('child', '') !== '') {
  await runClientChild({
    snapshot: (client) => snapshot(client, snapshotTransport(option('transport', 'websocket'))),
    history: (client) => history(client, numberOption('count', 0)),
    track: (client) => track(client, numberOption('count', 0), numberOption('rate', 50), trackTransport(option('transport', 'websocket'))),
  });
} else await driver();
