/**
 * Question: end to end over HTTP, how fast and how lean is `client.updates()` compared with the peers' way
 * of reading `POST /v2/updates`?
 *
 * Fixture: the sandbox participant in its own process (`ledger-rx sandbox --response-mode streamed --seed N
 * --seed-payload-bytes B`), seeded with ~1.1 GB of updates (its workload: Iou creates and transfers, keyed
 * assets; ~4.7 KB per element on average). One bounded request per read (`endInclusive` = ledger end,
 * `?limit=` = the number of elements that make ~200 MB or ~1 GB), so each read is one streamed body.
 * Compared, every read in a fresh client process (rounds over all clients, so background load hits them alike):
 *   - ledger-rx `client.updates()` with validation (the default), counting elements of the Observable;
 *   - ledger-rx `client.updates()` without validation (informational);
 *   - undici `request()` + `body.json()` (what most hand-written clients do);
 *   - the official client, `@canton-network/core-ledger-client` `LedgerClient.post('/v2/updates', …)`
 *     (openapi-fetch over the global fetch: `response.json()`);
 *   - undici `request()` draining the body without parsing: the ceiling the sandbox allows on this machine.
 * Reported: MB/s (elements/s in the results file), time to the first element (request start to first element available, on a
 * client warmed up by a one-element read on the same connection; the cold first read is shown too), and the
 * client process's peak RSS (ru_maxrss; each child imports only its own client) and CPU time. On a busy
 * machine the ratios drift towards the ratio of CPU times: streaming wins by overlapping the client's parsing
 * with the server's writing, which needs a free core. The peers cannot read a 1 GB body at all (a JS string is capped
 * at ~512 MB): their 1 GB attempt runs once and is reported as failing.
 *
 * Run (after the root `npm run build`):
 *
 *     npm --prefix benchmarks run build && node benchmarks/node_modules/.bench-build/http/http.bench.js [--quick] [--runs=5]
 *
 * Writes benchmarks/results/http.json; the full table is in benchmarks/README.md.
 *
 * Latest figures: benchmarks/results/http.json and the table in benchmarks/README.md (not repeated here,
 * so that they cannot go stale).
 */
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { log, mode, numberOption, option } from '../lib/args.js';
import { MiB, runJsonChild, startSandboxProcess } from '../lib/proc.js';
import { atLeast, atMost, figure, type Check, type Figure, type Row } from '../lib/report.js';
import { startBenchRun } from '../lib/bench-run.js';
import { updatesRequest } from '../lib/updates-request.js';

/** One read by one client, printed by the child as JSON. */
interface Sample {
  readonly variant: string;
  readonly elements: number;
  readonly ms: number;
  /** Request start to first element, on a warm client and connection. */
  readonly firstMs: number;
  /** The same for the first read of the process (cold: JIT, lazy initialisation, connect). */
  readonly coldFirstMs: number;
  /** Peak RSS of the client process (ru_maxrss), bytes. */
  readonly peakRss: number;
  /** RSS before the request, bytes. */
  readonly rssBefore: number;
  /** CPU time (user + system) of the client process during the read, ms. */
  readonly cpuMs: number;
  /** Body bytes (the drain variant only). */
  readonly bytes?: number;
  readonly lastOffset?: number | undefined;
  readonly error?: string;
}

const variants: Readonly<Record<string, string>> = {
  'ledger-rx': 'ledger-rx client.updates() validated',
  'ledger-rx-unvalidated': 'ledger-rx client.updates() unvalidated',
  'undici-json': 'undici request() + body.json()',
  official: '@canton-network/core-ledger-client post()',
  drain: 'undici request(), body drained unparsed (ceiling)',
};

/** `value.offset` of an element (the same code for every client, and no ledger-rx in a peer's process). */
function offsetOf(element: unknown): number | undefined {
  const update = (element as { update?: Record<string, { value?: { offset?: number } }> }).update;
  for (const key in update) return update[key]?.value?.offset;
  return undefined;
}

/** What every client does with each element, once it has it: count it and read its offset. */
function consume(all: readonly unknown[], onFirst: () => void): { elements: number; lastOffset: number | undefined } {
  let elements = 0;
  let lastOffset: number | undefined;
  for (const element of all) {
    if (elements++ === 0) onFirst();
    lastOffset = offsetOf(element);
  }
  return { elements, lastOffset };
}

/** What a child measures: one read of `limit` elements by one client. */
type Reader = (limit: number, onFirst: () => void) => Promise<{ elements: number; lastOffset: number | undefined; bytes?: number }>;

/**
 * Child: makes the client of `variant` (each child imports only what its client needs, so the RSS is that
 * client's), warms it up with a read of one element on the same connection (the cold figures are kept as
 * `cold*`), then measures one read of `limit` elements.
 */
async function child(variant: string, url: string, end: number, limit: number): Promise<void> {
  const body = updatesRequest(0, end);
  let reader: Reader;
  let close: () => Promise<void> = async () => undefined;
  switch (variant) {
    case 'ledger-rx':
    case 'ledger-rx-unvalidated': {
      const { createLedgerClient } = await import('ledger-rx');
      const client = createLedgerClient({ baseUrl: url, validateResponses: variant === 'ledger-rx' });
      close = () => client.close();
      reader = (n, onFirst) =>
        new Promise((resolve, reject) => {
          let elements = 0;
          let lastOffset: number | undefined;
          client.updates(body, { limit: n }).subscribe({
            next: (element) => {
              if (elements++ === 0) onFirst();
              lastOffset = offsetOf(element);
            },
            error: reject,
            complete: () => resolve({ elements, lastOffset }),
          });
        });
      break;
    }
    case 'undici-json':
    case 'drain': {
      const { Agent, request: send } = await import('undici');
      const dispatcher = new Agent();
      close = () => dispatcher.close();
      reader = async (n, onFirst) => {
        const response = await send(`${url}/v2/updates?limit=${n}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify(body),
          dispatcher,
        });
        if (response.statusCode !== 200) throw new Error(`HTTP ${response.statusCode}: ${await response.body.text()}`);
        if (variant === 'drain') {
          let bytes = 0;
          await new Promise<void>((resolve, reject) => {
            response.body.on('data', (chunk: Buffer) => {
              if (bytes === 0) onFirst();
              bytes += chunk.length;
            });
            response.body.on('end', resolve);
            response.body.on('error', reject);
          });
          return { elements: 0, lastOffset: undefined, bytes };
        }
        const all = (await response.body.json()) as unknown[];
        return consume(all, onFirst);
      };
      break;
    }
    case 'official': {
      const { LedgerClient } = await import('@canton-network/core-ledger-client');
      const { pino } = await import('pino');
      const client = new LedgerClient({
        baseUrl: new URL(url),
        logger: pino({ level: 'silent' }),
        accessTokenProvider: {
          getAccessToken: async () => '',
          getAuthContext: async () => ({ userId: 'participant_admin', accessToken: '' }),
        },
      });
      reader = async (n, onFirst) => {
        const all = (await client.post('/v2/updates', body as never, { query: { limit: n } })) as unknown as unknown[];
        return consume(all, onFirst);
      };
      break;
    }
    default:
      throw new Error(`unknown variant ${variant}`);
  }
  const timed = async (n: number) => {
    let firstMs = -1;
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const result = await reader(n, () => {
      if (firstMs < 0) firstMs = performance.now() - t0;
    });
    const ms = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    return { ...result, firstMs, ms, cpuMs: (cpu.user + cpu.system) / 1000 };
  };
  const cold = await timed(1);
  const rssBefore = process.memoryUsage().rss;
  let sample: Sample;
  try {
    const r = await timed(limit);
    sample = {
      variant,
      elements: r.elements,
      ms: r.ms,
      firstMs: r.firstMs,
      coldFirstMs: cold.firstMs,
      cpuMs: r.cpuMs,
      peakRss: process.resourceUsage().maxRSS * 1024,
      rssBefore,
      ...(r.bytes === undefined ? {} : { bytes: r.bytes }),
      ...(r.lastOffset === undefined ? {} : { lastOffset: r.lastOffset }),
    };
  } catch (e) {
    sample = {
      variant,
      elements: 0,
      ms: 0,
      firstMs: -1,
      coldFirstMs: cold.firstMs,
      cpuMs: 0,
      peakRss: process.resourceUsage().maxRSS * 1024,
      rssBefore,
      error: e instanceof Error ? `${e.name}: ${e.message}`.slice(0, 300) : String(e),
    };
  }
  await close();
  process.stdout.write(`${JSON.stringify(sample)}\n`);
}

async function ledgerEnd(url: string): Promise<number> {
  const response = await request(`${url}/v2/state/ledger-end`);
  return ((await response.body.json()) as { offset: number }).offset;
}

/** Bytes of the first `limit` elements (read by draining, in this process). */
async function bytesOf(url: string, end: number, limit: number): Promise<number> {
  const response = await request(`${url}/v2/updates?limit=${limit}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(updatesRequest(0, end)),
  });
  let n = 0;
  for await (const chunk of response.body) n += (chunk as Buffer).length;
  return n;
}

async function driver(): Promise<void> {
  const run = startBenchRun();
  const m = mode();
  const runs = numberOption('runs', m === 'quick' ? 2 : 7);
  const largeRuns = numberOption('large-runs', m === 'quick' ? 2 : 3);
  const sizes = option('sizes', m === 'quick' ? '50,200' : '200,1000').split(',').map(Number) as [number, number];
  const payload = numberOption('payload', 3800);
  const largest = Math.max(...sizes);
  // ~4.7 KB per element and 90% of the seeded transactions visible in an ACS-delta read, with 10% to spare
  const seed = numberOption('seed', Math.ceil(((largest * 1e6) / 4500 / 0.9) * 1.1));
  const selected = option('variants', 'ledger-rx,ledger-rx-unvalidated,undici-json,official,drain').split(',');
  const self = fileURLToPath(import.meta.url);

  log(`http: starting the sandbox (streamed, seed ${seed}, payload ${payload} B)`);
  const sandbox = await startSandboxProcess([
    '--port', '0', '--response-mode', 'streamed', '--seed', String(seed), '--seed-payload-bytes', String(payload), '--request-timeout-ms', '3600000',
  ]);
  const samples = new Map<string, Sample[]>();
  const fixture: Record<string, unknown> = { seed, seedPayloadBytes: payload, runs, largeRuns };
  try {
    const end = await ledgerEnd(sandbox.url);
    const probe = 2000;
    const average = (await bytesOf(sandbox.url, end, probe)) / probe;
    const limits = sizes.map((mb) => Math.round((mb * 1e6) / average));
    fixture['ledgerEnd'] = end;
    fixture['averageElementBytes'] = Math.round(average);
    fixture['limits'] = limits;
    log(`http: ${sandbox.url}, ledger end ${end}, ~${average.toFixed(0)} B per element, limits ${limits.join(', ')}`);
    // one warm-up read of the largest body, so the sandbox's first-read costs are not charged to anyone
    await bytesOf(sandbox.url, end, limits[1] as number);
    for (let s = 0; s < sizes.length; s++) {
      const limit = limits[s] as number;
      const n = s === 0 ? runs : largeRuns;
      for (let r = 0; r < n; r++) {
        for (const variant of selected) {
          const key = `${s}:${variant}`;
          const previous = samples.get(key) ?? [];
          // a peer that failed on this size is not tried again
          if (previous.some((p) => p.error !== undefined)) continue;
          const sample = await runJsonChild<Sample>(self, [`--child=${variant}`, `--url=${sandbox.url}`, `--end=${end}`, `--limit=${limit}`]);
          samples.set(key, [...previous, sample]);
          log(
            `http ${sizes[s]} MB round ${r + 1}/${n}: ${variants[variant] ?? variant}: ` +
              (sample.error ?? `${sample.elements} elements in ${sample.ms.toFixed(0)} ms, first ${sample.firstMs.toFixed(1)} ms, peak RSS ${(sample.peakRss / MiB).toFixed(0)} MiB`),
          );
        }
      }
    }
    fixture['sandboxPeakRssMiB'] = Math.round(sandbox.peakRss() / MiB);
  } finally {
    await sandbox.stop();
  }

  const rows: Row[] = [];
  const bytesFor = sizes.map((_, s) => samples.get(`${s}:drain`)?.find((x) => x.bytes !== undefined)?.bytes);
  const peakFig: (Figure | undefined)[] = [];
  for (let s = 0; s < sizes.length; s++) {
    const bytes = bytesFor[s];
    if (bytes === undefined) throw new Error('http: the drain variant is needed for the byte count');
    const group = `HTTP ${(bytes / 1e6).toFixed(0)} MB`;
    const get = (variant: string) => samples.get(`${s}:${variant}`) ?? [];
    const ok = (variant: string) => get(variant).filter((x) => x.error === undefined);
    const expected = ok('ledger-rx')[0]?.elements;
    for (const variant of selected) {
      for (const x of ok(variant)) {
        if (variant !== 'drain' && x.elements !== expected) throw new Error(`http: ${variant} saw ${x.elements} elements, ledger-rx ${expected}`);
      }
    }
    const tp = (variant: string) => {
      const list = ok(variant);
      return list.length > 0 ? figure(list.map((x) => bytes / 1e6 / (x.ms / 1000))) : undefined;
    };
    const ours = tp('ledger-rx');
    // the targets (issue 16): validated ≥ 1.6× undici + body.json(), ≥ 2× the official client (a peer that
    // cannot read the body at all is passed)
    const versus = (peer: string, name: string, factor: number): Check | undefined => {
      if (!selected.includes(peer) || !ours) return undefined;
      if (get(peer).some((x) => x.error !== undefined)) return { target: `≥ ${factor}× ${name}`, actual: `${name} fails`, pass: true };
      const theirs = tp(peer);
      return theirs ? atLeast(ours.median, theirs.median, factor, name) : undefined;
    };
    for (const variant of selected) {
      const subject = variants[variant] ?? variant;
      const failed = get(variant).find((x) => x.error !== undefined);
      if (failed) {
        rows.push({ group, subject, metric: 'MB/s', note: `fails: ${failed.error?.split('\n')[0]?.slice(0, 90)}` });
        continue;
      }
      const value = tp(variant);
      if (variant === 'ledger-rx') {
        rows.push({ group, subject, metric: 'MB/s', value, digits: 1, check: versus('undici-json', 'undici+body.json()', 1.6) });
        rows.push({ group, subject, metric: 'MB/s', value, digits: 1, check: versus('official', 'official client', 2) });
      } else {
        rows.push({ group, subject, metric: 'MB/s', value, digits: 1 });
      }
    }
    for (const variant of selected) {
      const list = ok(variant);
      if (list.length > 0) rows.push({ group, subject: variants[variant] ?? variant, metric: 'client CPU, ms', value: figure(list.map((x) => x.cpuMs)) });
    }
    for (const variant of selected) {
      const list = ok(variant);
      if (list.length === 0 || variant === 'drain') continue;
      const v = figure(list.map((x) => x.firstMs));
      rows.push({ group, subject: variants[variant] ?? variant, metric: 'first element, ms', value: v, digits: 1, check: variant === 'ledger-rx' ? atMost(v.median, 25, 'ms', 1) : undefined });
      if (variant === 'ledger-rx') {
        // the same target, held against the cold first read too, so that a miss there is visible
        const c = figure(list.map((x) => x.coldFirstMs));
        rows.push({ group, subject: `${variants[variant]}, first read of a fresh process`, metric: 'first element (cold), ms', value: c, digits: 1, check: atMost(c.median, 25, 'ms', 1) });
      }
    }
    for (const variant of selected) {
      const all = get(variant);
      if (all.length === 0) continue;
      const list = ok(variant);
      const v = figure((list.length > 0 ? list : all).map((x) => x.peakRss / MiB));
      const failedNote = list.length === 0 ? 'before failing' : undefined;
      let check: Check | undefined;
      if (variant === 'ledger-rx') {
        peakFig[s] = v;
        check = atMost(v.median, 160, 'MiB');
      }
      rows.push({ group, subject: variants[variant] ?? variant, metric: 'peak RSS, MiB', value: v, digits: 0, note: failedNote, check });
    }
  }
  const [small, large] = peakFig;
  if (small && large) {
    const delta = large.median - small.median;
    rows.push({
      group: `HTTP ${((bytesFor[1] ?? 0) / 1e6).toFixed(0)} vs ${((bytesFor[0] ?? 0) / 1e6).toFixed(0)} MB`,
      subject: `${variants['ledger-rx']}: peak RSS growth`,
      metric: 'Δ peak RSS, MiB',
      value: figure([delta]),
      digits: 1,
      check: { target: '≤ 32 MiB', actual: `${delta.toFixed(1)} MiB`, pass: Math.abs(delta) <= 32 },
    });
  }
  const file = run.finish({
    name: 'http',
    question: 'end-to-end throughput, first element and memory of one large POST /v2/updates body',
    mode: m,
    fixture: { ...fixture, sizes, bodyBytes: bytesFor },
    rows,
    extra: { samples: Object.fromEntries(samples) },
  });
  log(`http: wrote ${file}`);
}

const childVariant = option('child', '');
if (childVariant) await child(childVariant, option('url', ''), Number(option('end', '0')), Number(option('limit', '0')));
else await driver();
