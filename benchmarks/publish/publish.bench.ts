/**
 * Question: how fast does `ledger-rx publish` fan the update stream out into NATS JetStream, exactly once —
 * to a single node and to a 3-node cluster with 3 replicas — and how long does an update take from its
 * submit to a JetStream consumer?
 *
 * Fixture: a sandbox participant in its own process (lib/sandbox-host.ts, default buffered mode: pages of
 * 200, like a real participant) holding N transactions of exactly 1 Iou create each (~1.6 KB per element),
 * and Debian's nats-server with JetStream (file store in a temp dir): one node, then three nodes forming a
 * cluster. Every measured client is a fresh process; the rounds alternate over the variants:
 *
 *   - `publish`: the real CLI into a new stream, reading up to the ledger end (validated, and `--no-validate`):
 *
 *         node dist/cli/main.js publish --nats <url> --stream <new> --subject-prefix ledger.<new> --url <sandbox> --to <end> --stats --no-progress --log-level warn
 *
 *     updates/s from its `--stats` (its own clock: start to the last acknowledgement, connection and stream
 *     creation included); afterwards the stream is read back with an ordered consumer and must hold every
 *     seeded offset once, in order, at sequences 1…N (else the benchmark fails);
 *   - `tail`: `ledger-rx tail --to <end> --out /dev/null` on the same range: the read side alone;
 *   - `plain`: `@nats-io/jetstream` `js.publish()` of N messages of the same size with `Nats-Msg-Id`,
 *     1,024 in flight, as an application would write it: the broker side alone (a ceiling).
 *
 * CPU: each child's own user+system time (printed at its exit, lib/cpu-at-exit.ts) and that of nats-server
 * and the sandbox (from /proc around the run), per update — so the figures can be compared across loads.
 *
 * Latency: a publisher running live (`--from end`), a child that consumes the stream with
 * `consumeLedgerFromJetStream` (ordered) and submits 1,000 Iou creates at 50/s over HTTP: time from the
 * submit's answer (accepted) to the consumer receiving the transaction (0 when it arrived first), p50 and p99.
 *
 * Run (after the root `npm run build`; needs nats-server, e.g. `apt-get install nats-server`; `--cpu-prof=DIR`
 * writes a CPU profile of each measured CLI run into DIR):
 *
 *     npm --prefix benchmarks run build && node benchmarks/node_modules/.bench-build/publish/publish.bench.js [--quick] [--runs=3] [--updates=100000] [--parts=single,latency,cluster] [--cpu-prof=DIR]
 *
 * Writes benchmarks/results/publish.json; the full table is in benchmarks/README.md.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { jetstream, jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { createLedgerClient } from 'ledger-rx';
import { consumeLedgerFromJetStream } from 'ledger-rx/jetstream';
import { log, mode, numberOption, option } from '../lib/args.js';
import { startBenchRun } from '../lib/bench-run.js';
import { cpuAtExitFlags, cpuAtExitOf, processCpuMs } from '../lib/cpu.js';
import { histogram, measureLatency, type LatencySample } from '../lib/latency.js';
import { startNats, type NatsServers } from '../lib/nats-server.js';
import { buildDir, cliMain, dataDir } from '../lib/paths.js';
import { runJsonChild, sleep, startSandboxProcess, type SandboxProcess } from '../lib/proc.js';
import { atLeastAbsolute, atMost, figure, quantile, type Row } from '../lib/report.js';

const self = fileURLToPath(import.meta.url);

/** One measured run of one variant. */
interface RunSample {
  readonly variant: string;
  readonly updates: number;
  readonly seconds: number;
  /** The measured client's own CPU, ms. */
  readonly clientCpuMs: number;
  /** nats-server (all nodes) and sandbox CPU during the run, ms. */
  readonly serverCpuMs: number;
  readonly sandboxCpuMs: number;
  readonly maxRssKiB: number;
  /** The stream was read back and held every offset once, in order (publish variants). */
  readonly verified?: boolean;
}

/** `--stats` of the CLI. */
interface RunStats {
  readonly count: number;
  readonly bytes: number;
  readonly seconds: number;
}

/** `--cpu-prof=DIR`: each measured CLI run also writes a V8 CPU profile into DIR (for `node --cpu-prof`'s viewers). */
const cpuProfDir = option('cpu-prof', '');
const profileFlags = cpuProfDir === '' ? [] : ['--cpu-prof', `--cpu-prof-dir=${cpuProfDir}`];

/** Runs the built CLI with the CPU preload; resolves with its `--stats` and its CPU. */
function runCli(args: readonly string[]): Promise<{ stats: RunStats; cpuMs: number; maxRssKiB: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...cpuAtExitFlags, ...profileFlags, cliMain, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
    child.on('close', (code) => {
      const line = err.trim().split('\n').reverse().find((l) => l.startsWith('{"count"'));
      const cpu = cpuAtExitOf(err);
      if (code !== 0 || line === undefined || cpu === undefined) {
        reject(new Error(`ledger-rx ${args[0]} exited with ${code}:\n${err.slice(-3000)}`));
        return;
      }
      resolve({ stats: JSON.parse(line) as RunStats, cpuMs: cpu.userMs + cpu.systemMs, maxRssKiB: cpu.maxRssKiB });
    });
  });
}

/** Measures `work` with the CPU of the servers around it. */
async function measured(
  variant: string,
  servers: { nats: NatsServers; sandbox: SandboxProcess },
  work: () => Promise<{ updates: number; seconds: number; clientCpuMs: number; maxRssKiB: number }>,
): Promise<RunSample> {
  const natsCpu = () => servers.nats.pids.reduce((sum, pid) => sum + processCpuMs(pid), 0);
  const n0 = natsCpu();
  const s0 = processCpuMs(servers.sandbox.pid);
  const r = await work();
  return { variant, ...r, serverCpuMs: natsCpu() - n0, sandboxCpuMs: processCpuMs(servers.sandbox.pid) - s0 };
}

/** Reads `stream` back in order: true when it holds exactly `offsets` (by their `Ledger-Offset` header) at sequences 1…N. */
async function verifyStream(urls: string, stream: string, offsets: readonly number[]): Promise<boolean> {
  const nc = await connect({ servers: urls.split(',') });
  try {
    const jsm = await jetstreamManager(nc, { checkAPI: false });
    const info = await jsm.streams.info(stream);
    if (info.state.messages !== offsets.length || info.state.first_seq !== 1 || info.state.last_seq !== offsets.length) {
      log(`publish: stream ${stream} holds ${info.state.messages} messages (sequences ${info.state.first_seq}–${info.state.last_seq}), expected ${offsets.length}`);
      return false;
    }
    const consumer = await jetstream(nc).consumers.get(stream);
    const messages = await consumer.consume({ max_messages: 2_000 });
    let i = 0;
    for await (const m of messages) {
      if (m.seq !== i + 1 || m.headers?.get('Ledger-Offset') !== String(offsets[i])) {
        log(`publish: stream ${stream} sequence ${m.seq} holds offset ${m.headers?.get('Ledger-Offset')}, expected ${offsets[i]} at ${i + 1}`);
        await messages.close();
        return false;
      }
      if (++i === offsets.length) break;
    }
    await messages.close();
    return i === offsets.length;
  } finally {
    await nc.close();
  }
}

async function deleteStream(urls: string, stream: string): Promise<void> {
  const nc = await connect({ servers: urls.split(',') });
  try {
    const jsm: JetStreamManager = await jetstreamManager(nc, { checkAPI: false });
    await jsm.streams.delete(stream);
  } finally {
    await nc.close();
  }
}

/** Child: `count` plain `js.publish()` calls (CPU: the whole process) of `bytes`-byte messages with a message id, `window` in flight. */
async function plainChild(urls: string, stream: string, count: number, bytes: number, replicas: number, window: number): Promise<{ elements: number; ms: number; cpuMicros: number }> {
  const nc = await connect({ servers: urls.split(',') });
  const jsm = await jetstreamManager(nc);
  await jsm.streams.add({ name: stream, subjects: [`plain.${stream}.>`], num_replicas: replicas });
  const js = jetstream(nc);
  const data = new TextEncoder().encode(JSON.stringify({ pad: 'x'.repeat(Math.max(0, bytes - 10)) }));
  const t0 = performance.now();
  await new Promise<void>((resolve, reject) => {
    let next = 0;
    let acked = 0;
    let inFlight = 0;
    const pump = () => {
      while (inFlight < window && next < count) {
        const i = next++;
        inFlight++;
        js.publish(`plain.${stream}.tx`, data, { msgID: `${stream}:${i}` }).then(() => {
          inFlight--;
          if (++acked === count) resolve();
          else pump();
        }, reject);
      }
    };
    pump();
  });
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(); // the whole process, start-up included, like the CLI's figure
  await nc.close();
  return { elements: count, ms, cpuMicros: cpu.user + cpu.system };
}

/** Child: consumes `stream` while submitting `count` transactions at `rate`/s; latency from each submit to its message. */
async function latencyChild(url: string, urls: string, stream: string, count: number, rate: number): Promise<LatencySample> {
  const client = createLedgerClient({ baseUrl: url });
  const nc = await connect({ servers: urls.split(',') });
  try {
    const consumer = consumeLedgerFromJetStream({ connection: nc, stream });
    return await measureLatency(client, consumer, { count, rate, ready: sleep(500), label: 'publish latency' }); // 500 ms: the ordered consumer is created
  } finally {
    await nc.close();
    await client.close();
  }
}

/** A live `ledger-rx publish --from end` in its own process; resolves once it tails the ledger end. */
async function startLivePublisher(args: readonly string[]): Promise<{ stop(): Promise<void> }> {
  const child = spawn(process.execPath, [cliMain, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 60_000;
  while (!err.includes('caught up with the ledger end')) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`publish did not reach the ledger end:\n${err.slice(-3000)}`);
    await sleep(50);
  }
  return {
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

async function driver(): Promise<void> {
  const run = startBenchRun();
  const m = mode();
  const runs = numberOption('runs', m === 'quick' ? 1 : 3);
  const clusterRuns = numberOption('cluster-runs', runs);
  const updates = numberOption('updates', m === 'quick' ? 10_000 : 100_000);
  const submissions = numberOption('submissions', m === 'quick' ? 200 : 1000);
  const rate = numberOption('rate', 50);
  const window = numberOption('window', 1024);
  const parts = option('parts', 'single,latency,cluster').split(',');
  const offsetsFile = join(dataDir, `publish-offsets-${updates}.json`);

  mkdirSync(dataDir, { recursive: true });
  log(`publish: seeding a sandbox with ${updates} transactions of 1 event`);
  const sandbox = await startSandboxProcess([`--transactions=${updates}`, '--events=1', `--offsets-file=${offsetsFile}`], {
    script: join(buildDir, 'lib', 'sandbox-host.js'),
    readyTimeoutMs: 600_000,
  });
  const offsets = JSON.parse(readFileSync(offsetsFile, 'utf8')) as number[];
  const end = offsets[offsets.length - 1] as number;
  const samples: RunSample[] = [];
  const latency: LatencySample[] = [];
  let averageBytes = 1600;
  let natsVersion = '';
  let streamCounter = 0;

  /** One round of publish runs (and optionally the ceilings) against `nats`. */
  const round = async (nats: NatsServers, where: string, replicas: number, variants: readonly string[]) => {
    const servers = { nats, sandbox };
    for (const variant of variants) {
      const stream = `BENCH_${where.toUpperCase()}_${streamCounter++}`;
      if (variant === 'tail') {
        samples.push(
          await measured(`${where}:tail`, servers, async () => {
            const r = await runCli(['tail', '--url', sandbox.url, '--to', String(end), '--out', '/dev/null', '--stats', '--no-progress', '--log-level', 'warn']);
            averageBytes = Math.round(r.stats.bytes / r.stats.count);
            return { updates: r.stats.count, seconds: r.stats.seconds, clientCpuMs: r.cpuMs, maxRssKiB: r.maxRssKiB };
          }),
        );
      } else if (variant === 'plain') {
        samples.push(
          await measured(`${where}:plain`, servers, async () => {
            const r = await runJsonChild<{ elements: number; ms: number; cpuMicros: number }>(self, [
              '--child=plain', `--nats=${nats.urls}`, `--stream=${stream}`, `--count=${updates}`, `--bytes=${averageBytes}`, `--replicas=${replicas}`, `--window=${window}`,
            ]);
            return { updates: r.elements, seconds: r.ms / 1000, clientCpuMs: r.cpuMicros / 1000, maxRssKiB: 0 };
          }),
        );
        await deleteStream(nats.urls, stream);
      } else {
        const extra = variant === 'publish-unvalidated' ? ['--no-validate'] : [];
        const sample = await measured(`${where}:${variant}`, servers, async () => {
          const r = await runCli([
            'publish', '--nats', nats.urls, '--stream', stream, '--subject-prefix', `ledger.${stream.toLowerCase()}`, '--replicas', String(replicas),
            '--url', sandbox.url, '--to', String(end), '--stats', '--no-progress', '--log-level', 'warn', ...extra,
          ]);
          if (r.stats.count !== updates) throw new Error(`publish: published ${r.stats.count} updates, expected ${updates}`);
          return { updates: r.stats.count, seconds: r.stats.seconds, clientCpuMs: r.cpuMs, maxRssKiB: r.maxRssKiB };
        });
        const verified = await verifyStream(nats.urls, stream, offsets);
        if (!verified) throw new Error(`publish: stream ${stream} does not hold every offset once, in order`);
        samples.push({ ...sample, verified });
        await deleteStream(nats.urls, stream);
      }
      const s = samples[samples.length - 1] as RunSample;
      log(`publish ${s.variant}: ${(s.updates / s.seconds).toFixed(0)} updates/s, client CPU ${((s.clientCpuMs * 1000) / s.updates).toFixed(1)} µs/update, nats-server ${((s.serverCpuMs * 1000) / s.updates).toFixed(1)}, sandbox ${((s.sandboxCpuMs * 1000) / s.updates).toFixed(1)}`);
    }
  };

  try {
    if (parts.includes('single') || parts.includes('latency')) {
      const nats = await startNats(1);
      natsVersion = nats.version;
      try {
        if (parts.includes('single')) {
          for (let r = 0; r < runs; r++) {
            log(`publish single node, round ${r + 1}/${runs}`);
            await round(nats, 'single', 1, ['tail', 'plain', 'publish', 'publish-unvalidated']);
          }
        }
        if (parts.includes('latency')) {
          for (let r = 0; r < runs; r++) {
            const stream = `BENCH_LATENCY_${r}`;
            const publisher = await startLivePublisher([
              'publish', '--nats', nats.urls, '--stream', stream, '--subject-prefix', `ledger.latency${r}`, '--url', sandbox.url, '--from', 'end', '--no-progress', '--log-level', 'info',
            ]);
            try {
              const s = await runJsonChild<LatencySample>(self, ['--child=latency', `--url=${sandbox.url}`, `--nats=${nats.urls}`, `--stream=${stream}`, `--count=${submissions}`, `--rate=${rate}`]);
              if (s.seen !== submissions) throw new Error(`publish latency: the consumer saw ${s.seen} of ${submissions} submissions`);
              latency.push(s);
              log(`publish latency round ${r + 1}/${runs}: p50 ${quantile(s.latencies, 0.5).toFixed(1)} ms, p99 ${quantile(s.latencies, 0.99).toFixed(1)} ms, max ${Math.max(...s.latencies).toFixed(1)} ms`);
            } finally {
              await publisher.stop();
            }
            await deleteStream(nats.urls, stream);
          }
        }
      } finally {
        await nats.stop();
      }
    }
    if (parts.includes('cluster')) {
      const nats = await startNats(3);
      natsVersion ||= nats.version;
      try {
        for (let r = 0; r < clusterRuns; r++) {
          log(`publish 3-node cluster, round ${r + 1}/${clusterRuns}`);
          await round(nats, 'cluster', 3, ['plain', 'publish']);
        }
      } finally {
        await nats.stop();
      }
    }
  } finally {
    await sandbox.stop();
  }

  const rows: Row[] = [];
  const pick = (variant: string) => samples.filter((s) => s.variant === variant);
  const rateOf = (list: readonly RunSample[]) => figure(list.map((s) => s.updates / s.seconds));
  const perUpdate = (list: readonly RunSample[], key: 'clientCpuMs' | 'serverCpuMs' | 'sandboxCpuMs') => figure(list.map((s) => (s[key] * 1000) / s.updates));
  const subjects: Record<string, string> = {
    tail: 'ledger-rx tail --out /dev/null (the read alone)',
    plain: `plain js.publish(), Msg-Id, ${window.toLocaleString('en-US')} in flight (broker ceiling)`,
    publish: 'ledger-rx publish (validated)',
    'publish-unvalidated': 'ledger-rx publish --no-validate',
  };
  for (const [where, title] of [
    ['single', `publish 1-event tx, 1 node (file, R1), ${updates.toLocaleString('en-US')} updates`],
    ['cluster', `publish 1-event tx, 3-node cluster (file, R3), ${updates.toLocaleString('en-US')} updates`],
  ] as const) {
    const present = ['publish', 'publish-unvalidated', 'tail', 'plain'].filter((v) => pick(`${where}:${v}`).length > 0);
    for (const v of present) {
      const list = pick(`${where}:${v}`);
      const value = rateOf(list);
      const check = v === 'publish' && where === 'single' ? atLeastAbsolute(value.median, 20_000, 'updates/s') : undefined;
      rows.push({ group: title, subject: subjects[v] as string, metric: 'updates/s', value, check });
    }
    const published = [...pick(`${where}:publish`), ...pick(`${where}:publish-unvalidated`)];
    if (published.length > 0) {
      const verified = published.filter((s) => s.verified === true).length;
      rows.push({
        group: title,
        subject: 'ledger-rx publish: stream read back (every offset once, in order, sequences 1…N)',
        metric: 'runs verified',
        value: figure([verified]),
        check: { target: `all ${published.length} runs`, actual: `${verified} of ${published.length}`, pass: verified === published.length },
      });
    }
    for (const v of present) {
      const list = pick(`${where}:${v}`);
      rows.push({ group: title, subject: `${subjects[v] as string}: its own CPU`, metric: 'CPU µs per update', value: perUpdate(list, 'clientCpuMs'), digits: 1 });
    }
    for (const v of present.filter((x) => x !== 'tail')) {
      const list = pick(`${where}:${v}`);
      rows.push({ group: title, subject: `${subjects[v] as string}: nats-server CPU${where === 'cluster' ? ' (3 nodes)' : ''}`, metric: 'CPU µs per update', value: perUpdate(list, 'serverCpuMs'), digits: 1 });
    }
    const read = [...pick(`${where}:publish`), ...pick(`${where}:tail`)];
    if (read.length > 0) rows.push({ group: title, subject: 'sandbox CPU while read (publish and tail runs)', metric: 'CPU µs per update', value: perUpdate(read, 'sandboxCpuMs'), digits: 1 });
  }
  if (latency.length > 0) {
    const group = `publish live, ${submissions.toLocaleString('en-US')} submits at ${rate}/s`;
    const f50 = figure(latency.map((s) => quantile(s.latencies, 0.5)));
    const f99 = figure(latency.map((s) => quantile(s.latencies, 0.99)));
    rows.push({ group, subject: 'submit accepted → received by a JetStream consumer', metric: 'p50, ms', value: f50, digits: 1, check: atMost(f50.median, 60, 'ms', 1) });
    rows.push({ group, subject: 'submit accepted → received by a JetStream consumer', metric: 'p99, ms', value: f99, digits: 1, check: atMost(f99.median, 250, 'ms', 1) });
    rows.push({ group, subject: 'submit sent → received by a JetStream consumer', metric: 'p50, ms', value: figure(latency.map((s) => quantile(s.fromSend, 0.5))), digits: 1 });
  }
  const file = run.finish({
    name: 'publish',
    question: 'ledger-rx publish into NATS JetStream: updates/s exactly once (1 node, 3-node R3 cluster), and latency from submit to a consumer',
    mode: m,
    fixture: { updates, averageElementBytes: averageBytes, runs, clusterRuns, submissions, rate, window, natsServer: natsVersion, sandbox: 'buffered (default), 200-element cap', storage: 'file' },
    rows,
    extra: { samples, latency: latency.map((s) => ({ ...s, latencies: undefined, fromSend: undefined, histogram: histogram(s.latencies) })) },
  });
  log(`publish: wrote ${file}`);
}

const childKind = option('child', '');
if (childKind === 'plain') {
  const r = await plainChild(option('nats', ''), option('stream', ''), numberOption('count', 0), numberOption('bytes', 1600), numberOption('replicas', 1), numberOption('window', 1024));
  process.stdout.write(`${JSON.stringify(r)}\n`);
} else if (childKind === 'latency') {
  const r = await latencyChild(option('url', ''), option('nats', ''), option('stream', ''), numberOption('count', 0), numberOption('rate', 50));
  process.stdout.write(`${JSON.stringify(r)}\n`);
} else {
  await driver();
}
