/**
 * Question: how fast does ledger-rx decode a `POST /v2/updates` body, compared with the ways its peers do it?
 *
 * Compared, on the same bytes (a deterministic 200 MB body of realistic update elements, 4.7 KB average, see
 * lib/realistic-updates.ts), fed from memory in 64 KiB chunks, each variant in a fresh child process:
 *   - JSON.parse of the whole body (chunks concatenated, decoded, parsed): what `body.json()` does;
 *   - stream-json's README idiom, `chain([readable, parser(), streamArray()])`;
 *   - ledger-rx `observeJsonArrayBody` + `decodeUpdateElement`, unvalidated (`validate: false`);
 *   - the same, validated with the zod wire schema (the client's default);
 *   - JSON.parse per element on pre-split element strings: the ceiling of any per-element decoder.
 * Reported: MB/s (10^6 body bytes per second), elements/s, time to the first element, and peak RSS growth
 * (peak RSS of the child minus its RSS after loading the body). Rounds go over all variants in turn, so
 * background load hits them alike; every figure is the median of the runs with its min–max.
 *
 * Run (after the root `npm run build`):
 *
 *     npm --prefix benchmarks run build && node benchmarks/node_modules/.bench-build/decode/decode.bench.js [--quick] [--runs=5] [--mb=200]
 *
 * Writes benchmarks/results/decode.json; the full table is in benchmarks/README.md.
 *
 * Latest figures: benchmarks/results/decode.json and the table in benchmarks/README.md (not repeated here,
 * so that they cannot go stale).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { decodeUpdateElement, observeJsonArrayBody, updateOffset } from 'ledger-rx';
import type { JsGetUpdatesResponse } from 'ledger-rx';
import chain from 'stream-chain';
import { parser } from 'stream-json';
import { streamArray } from 'stream-json/streamers/stream-array.js';
import { log, mode, numberOption, option } from '../lib/args.js';
import { dataDir } from '../lib/paths.js';
import { MiB } from '../lib/proc.js';
import { generateRealisticUpdatesBody } from '../lib/realistic-updates.js';
import { atLeast, atMost, figure, type Row } from '../lib/report.js';
import { startBenchRun } from '../lib/bench-run.js';

const CHUNK = 64 * 1024;

/** One run of one variant, printed by the child as JSON. */
interface Sample {
  readonly variant: string;
  readonly bytes: number;
  readonly elements: number;
  readonly ms: number;
  readonly firstMs: number;
  /** Peak RSS of the child minus its RSS just before the run (body already loaded). */
  readonly rssGrowth: number;
  readonly rssBefore: number;
  /** JS heap still used after the run and a full GC, minus before. */
  readonly retained: number;
  readonly lastOffset: number | undefined;
}

const variants: Readonly<Record<string, string>> = {
  whole: 'JSON.parse whole body',
  streamjson: 'stream-json parser()+streamArray()',
  unvalidated: 'ledger-rx unvalidated',
  validated: 'ledger-rx validated (zod)',
  presplit: 'JSON.parse per pre-split element (ceiling)',
  oversized: 'ledger-rx, every element via the oversized path',
};

function gc(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

function chunksOf(body: Buffer): Buffer[] {
  const chunks: Buffer[] = [];
  for (let i = 0; i < body.length; i += CHUNK) chunks.push(body.subarray(i, Math.min(i + CHUNK, body.length)));
  return chunks;
}

/** Child process: runs one variant on the body file and prints one JSON sample. */
async function child(variant: string, bodyFile: string, rangesFile: string): Promise<void> {
  const body = readFileSync(bodyFile);
  const chunks = chunksOf(body);
  let strings: string[] = [];
  if (variant === 'presplit') {
    const ranges = new Float64Array(readFileSync(rangesFile).buffer.slice(0));
    for (let i = 0; i < ranges.length; i += 2) strings.push(body.toString('utf8', ranges[i], ranges[i + 1]));
  }
  gc();
  const { rss: rssBefore, heapUsed: heapBefore } = process.memoryUsage();
  let elements = 0;
  let firstMs = -1;
  let last: unknown;
  const t0 = performance.now();
  const seen = (value: unknown): void => {
    if (elements++ === 0) firstMs = performance.now() - t0;
    last = value;
  };
  switch (variant) {
    case 'whole': {
      const all = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown[];
      for (const v of all) seen(v);
      break;
    }
    case 'streamjson':
      await new Promise<void>((resolve, reject) => {
        const pipeline = chain([Readable.from(chunks), parser(), streamArray()]);
        pipeline.on('data', (item: { value: unknown }) => seen(item.value));
        pipeline.on('end', resolve);
        pipeline.on('error', reject);
      });
      break;
    case 'unvalidated':
    case 'validated':
    case 'oversized': {
      const validate = variant === 'validated';
      const options = variant === 'oversized' ? { maxBufferedElementBytes: 1 } : {};
      await new Promise<void>((resolve, reject) => {
        observeJsonArrayBody(Readable.from(chunks), (v, i) => decodeUpdateElement(v, i, { validate }), options).subscribe({
          next: seen,
          complete: resolve,
          error: reject,
        });
      });
      break;
    }
    case 'presplit':
      for (let i = 0; i < strings.length; i++) seen(JSON.parse(strings[i] as string));
      break;
    default:
      throw new Error(`unknown variant ${variant}`);
  }
  const ms = performance.now() - t0;
  const peak = process.resourceUsage().maxRSS * 1024;
  strings = [];
  const lastOffset = updateOffset(last as JsGetUpdatesResponse);
  last = undefined;
  gc();
  const sample: Sample = {
    variant,
    bytes: body.length,
    elements,
    ms,
    firstMs,
    rssGrowth: peak - rssBefore,
    rssBefore,
    retained: process.memoryUsage().heapUsed - heapBefore,
    lastOffset,
  };
  process.stdout.write(`${JSON.stringify(sample)}\n`);
}

function runChild(self: string, variant: string, bodyFile: string, rangesFile: string): Promise<Sample> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, ['--expose-gc', self, `--child=${variant}`, `--body=${bodyFile}`, `--ranges=${rangesFile}`], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    p.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    p.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
    p.on('close', (code) => {
      if (code !== 0) reject(new Error(`variant ${variant} failed (${code}):\n${err}`));
      else resolve(JSON.parse(out.trim().split('\n').pop() ?? '') as Sample);
    });
  });
}

/** Parent: generates (or reuses) the body, runs every variant in fresh children, writes the results. */
async function driver(): Promise<void> {
  const run = startBenchRun();
  const m = mode();
  const mb = numberOption('mb', m === 'quick' ? 50 : 200);
  const runs = numberOption('runs', m === 'quick' ? 2 : 5);
  const selected = option('variants', 'whole,streamjson,unvalidated,validated,presplit').split(',');
  const seed = 20260630;
  mkdirSync(dataDir, { recursive: true });
  const bodyFile = join(dataDir, `realistic-updates-${mb}mb-${seed}.json`);
  const rangesFile = `${bodyFile}.ranges`;
  if (!existsSync(bodyFile) || !existsSync(rangesFile)) {
    log(`decode: generating a ${mb} MB body in ${bodyFile}`);
    const generated = generateRealisticUpdatesBody(mb * 1e6, seed);
    writeFileSync(bodyFile, generated.body);
    writeFileSync(rangesFile, new Uint8Array(generated.elementRanges.buffer, generated.elementRanges.byteOffset, generated.elementRanges.byteLength));
  }
  const self = fileURLToPath(import.meta.url);
  const samples = new Map<string, Sample[]>(selected.map((v) => [v, []]));
  for (let r = 0; r < runs; r++) {
    for (const variant of selected) {
      const s = await runChild(self, variant, bodyFile, rangesFile);
      samples.get(variant)?.push(s);
      log(`decode round ${r + 1}/${runs}: ${variants[variant] ?? variant}: ${mbps(s).toFixed(1)} MB/s, first ${s.firstMs.toFixed(1)} ms, peak RSS +${(s.rssGrowth / MiB).toFixed(1)} MiB`);
    }
  }
  const first = samples.get(selected[0] as string)?.[0];
  if (first === undefined) throw new Error('no samples');
  for (const [variant, list] of samples) {
    for (const s of list) {
      if (s.elements !== first.elements || s.lastOffset !== first.lastOffset) {
        throw new Error(`decode: ${variant} saw ${s.elements} elements (last offset ${s.lastOffset}), expected ${first.elements} (${first.lastOffset})`);
      }
    }
  }
  const fig = (variant: string, f: (s: Sample) => number) => {
    const list = samples.get(variant);
    return list && list.length > 0 ? figure(list.map(f)) : undefined;
  };
  const group = `decode ${Math.round(first.bytes / 1e6)} MB`;
  const rows: Row[] = [];
  const throughput = (v: string) => fig(v, mbps);
  const whole = throughput('whole');
  const sj = throughput('streamjson');
  const ceiling = throughput('presplit');
  for (const variant of selected) {
    const subject = variants[variant] ?? variant;
    const tp = throughput(variant);
    if (!tp) continue;
    if (variant === 'unvalidated') {
      rows.push({ group, subject, metric: 'MB/s', value: tp, digits: 1, check: whole && atLeast(tp.median, whole.median, 2.2, 'JSON.parse whole') });
      if (ceiling) rows.push({ group, subject, metric: 'MB/s', value: tp, digits: 1, check: atLeast(tp.median, ceiling.median, 0.75, 'per-element JSON.parse (ceiling)') });
      if (sj) rows.push({ group, subject, metric: 'MB/s', value: tp, digits: 1, check: atLeast(tp.median, sj.median, 4, 'stream-json') });
    } else if (variant === 'validated') {
      rows.push({ group, subject, metric: 'MB/s', value: tp, digits: 1, check: whole && atLeast(tp.median, whole.median, 1.8, 'JSON.parse whole') });
    } else {
      rows.push({ group, subject, metric: 'MB/s', value: tp, digits: 1 });
    }
  }
  for (const variant of selected) {
    const v = fig(variant, (s) => s.elements / (s.ms / 1000));
    if (v) rows.push({ group, subject: variants[variant] ?? variant, metric: 'elements/s', value: v });
  }
  for (const variant of selected) {
    const v = fig(variant, (s) => s.firstMs);
    const ours = variant === 'unvalidated' || variant === 'validated';
    if (v) rows.push({ group, subject: variants[variant] ?? variant, metric: 'first element, ms', value: v, digits: 1, check: ours ? atMost(v.median, 25, 'ms', 1) : undefined });
  }
  for (const variant of selected) {
    const v = fig(variant, (s) => s.rssGrowth / MiB);
    const ours = variant === 'unvalidated' || variant === 'validated';
    if (v) rows.push({ group, subject: variants[variant] ?? variant, metric: 'peak RSS growth, MiB', value: v, digits: 1, check: ours ? atMost(v.median, 64, 'MiB') : undefined });
  }
  const file = run.finish({
    name: 'decode',
    question: 'decoder throughput, time to first element and memory on an in-memory body',
    mode: m,
    fixture: { bytes: first.bytes, elements: first.elements, averageElementBytes: Math.round(first.bytes / first.elements), chunkBytes: CHUNK, runs, seed },
    rows,
    extra: { samples: Object.fromEntries(samples) },
  });
  log(`decode: wrote ${file}`);
}

function mbps(s: Sample): number {
  return s.bytes / 1e6 / (s.ms / 1000);
}

const childVariant = option('child', '');
if (childVariant) await child(childVariant, option('body', ''), option('ranges', ''));
else await driver();
