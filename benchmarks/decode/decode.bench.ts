/**
 * Decode benchmark: the same generated `POST /v2/updates` body (200 MB by default), fed from memory in 64 KiB
 * chunks, decoded by
 *   (a) JSON.parse of the whole body (chunks concatenated, decoded, parsed),
 *   (b) stream-json's README idiom, `chain([readable, parser(), streamArray()])`,
 *   (c) ledger-rx `observeJsonArrayBody` + `decodeUpdateElement` unvalidated,
 *   (d) the same, validated with zod,
 *   (e) JSON.parse per element on pre-split element strings (the ceiling),
 * plus two informational rows: the bare `JsonArrayScanner` loop, and ledger-rx with every element forced
 * through the oversized-element path (stream-json tokenizer + assembler + verifier).
 * Every variant runs in a fresh child process so that its peak RSS is its own.
 *
 * Run (from the repository root; compiles with tsc into a temp dir, then runs):
 *
 *     node benchmarks/decode/run.mjs [--mb=200] [--runs=3] [--variants=a,b,c,d,e,scanner,oversized]
 *
 * Runs go in rounds over all variants (so that background load hits all of them alike). Reported per variant:
 * the median run by throughput (MB/s = 10^6 body bytes per second, elements/s, time to first element), and the
 * median and largest peak RSS growth over the runs (peak RSS during the run minus RSS before it, with the body
 * already in memory), and the JS heap still retained after the run and a full GC.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import chain from 'stream-chain';
import { parser } from 'stream-json';
import { streamArray } from 'stream-json/streamers/stream-array.js';
import { decodeUpdateElement, JsonArrayScanner, observeJsonArrayBody, updateOffset } from '../../src/streams/index.js';
import type { JsGetUpdatesResponse } from '../../src/schemas/index.js';
import { generateRealisticUpdatesBody } from './realistic-updates.js';

const CHUNK = 64 * 1024;

interface Sample {
  readonly variant: string;
  readonly bytes: number;
  readonly elements: number;
  readonly ms: number;
  readonly firstMs: number;
  readonly rssGrowth: number;
  readonly rssBefore: number;
  /** JS heap still in use after the run and a full GC, minus before the run. */
  readonly retained: number;
  /** Driver only: the largest `rssGrowth` over the runs (`rssGrowth` is then the median). */
  readonly rssGrowthMax?: number;
  readonly lastOffset: number | undefined;
}

const variants: Readonly<Record<string, string>> = {
  a: '(a) JSON.parse whole body',
  b: '(b) stream-json parser()+streamArray()',
  c: '(c) ledger-rx unvalidated',
  d: '(d) ledger-rx validated (zod)',
  e: '(e) JSON.parse per pre-split element',
  scanner: '    JsonArrayScanner loop, unvalidated',
  oversized: '    ledger-rx, all elements oversized',
};

function arg(name: string, fallback: string): string {
  const found = process.argv.find((a) => a.startsWith(`--${name}=`));
  return found === undefined ? fallback : found.slice(name.length + 3);
}

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
  if (variant === 'e') {
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
    case 'a': {
      const all = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown[];
      for (const v of all) seen(v);
      break;
    }
    case 'b':
      await new Promise<void>((resolve, reject) => {
        const pipeline = chain([Readable.from(chunks), parser(), streamArray()]);
        pipeline.on('data', (item: { value: unknown }) => seen(item.value));
        pipeline.on('end', resolve);
        pipeline.on('error', reject);
      });
      break;
    case 'c':
    case 'd':
    case 'oversized': {
      const validate = variant === 'd';
      const options = variant === 'oversized' ? { maxBufferedElementBytes: 1 } : {};
      await new Promise<void>((resolve, reject) => {
        observeJsonArrayBody(Readable.from(chunks), (v, i) => decodeUpdateElement(v, i, { validate }), options)
          .subscribe({ next: seen, complete: resolve, error: reject });
      });
      break;
    }
    case 'scanner': {
      const scanner = new JsonArrayScanner((v, i) => seen(decodeUpdateElement(v, i, { validate: false })));
      for (const c of chunks) scanner.write(c);
      scanner.end();
      break;
    }
    case 'e':
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
  const retained = process.memoryUsage().heapUsed - heapBefore;
  const sample: Sample = {
    variant,
    bytes: body.length,
    elements,
    ms,
    firstMs,
    rssGrowth: peak - rssBefore,
    rssBefore,
    retained,
    lastOffset,
  };
  process.stdout.write(`${JSON.stringify(sample)}\n`);
}

/** Parent process: generates the body once, runs every variant in fresh children, prints the table. */
function driver(): void {
  const mb = Number(arg('mb', '200'));
  const runs = Number(arg('runs', '3'));
  const selected = arg('variants', 'a,b,c,d,e,scanner,oversized').split(',');
  const seed = 20260630;
  const bodyFile = join(tmpdir(), `ledger-rx-updates-${mb}mb-${seed}.json`);
  const rangesFile = `${bodyFile}.ranges`;
  if (!existsSync(bodyFile) || !existsSync(rangesFile)) {
    const generated = generateRealisticUpdatesBody(mb * 1e6, seed);
    writeFileSync(bodyFile, generated.body);
    writeFileSync(rangesFile, new Uint8Array(generated.elementRanges.buffer, generated.elementRanges.byteOffset, generated.elementRanges.byteLength));
  }
  const self = fileURLToPath(import.meta.url);
  // rounds of all variants, so that background load on the machine is spread over every variant alike
  const samples = new Map<string, Sample[]>(selected.map((v) => [v, []]));
  for (let r = 0; r < runs; r++) {
    for (const variant of selected) {
      const out = spawnSync(process.execPath, ['--expose-gc', self, `--child=${variant}`, `--body=${bodyFile}`, `--ranges=${rangesFile}`], {
        encoding: 'utf8',
        maxBuffer: 1 << 20,
      });
      if (out.status !== 0) throw new Error(`variant ${variant} failed:\n${out.stderr}`);
      const sample = JSON.parse(out.stdout.trim().split('\n').pop() ?? '') as Sample;
      samples.get(variant)?.push(sample);
      process.stderr.write(`round ${r + 1}: ${variants[variant] ?? variant}: ${mbps(sample).toFixed(1)} MB/s, peak RSS +${(sample.rssGrowth / 2 ** 20).toFixed(1)} MiB\n`);
    }
  }
  const results: Sample[] = [];
  for (const variant of selected) {
    const list = [...(samples.get(variant) ?? [])].sort((x, y) => x.ms - y.ms);
    const median = list[Math.floor(list.length / 2)] as Sample;
    const rss = list.map((s) => s.rssGrowth).sort((x, y) => x - y);
    results.push({ ...median, rssGrowth: rss[Math.floor(rss.length / 2)] as number, rssGrowthMax: rss[rss.length - 1] as number });
  }
  const first = results[0];
  if (first === undefined) return;
  const bodyInfo = `${(first.bytes / 1e6).toFixed(1)} MB body, ${first.elements} elements (avg ${(first.bytes / first.elements).toFixed(0)} B), 64 KiB chunks, median of ${runs} runs, node ${process.version}`;
  const lines = [
    bodyInfo,
    '',
    '| variant | MB/s | elements/s | first element | peak RSS growth (median / max) | heap retained | vs (a) | vs (b) |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
  ];
  const a = results.find((s) => s.variant === 'a');
  const b = results.find((s) => s.variant === 'b');
  for (const s of results) {
    lines.push(
      `| ${(variants[s.variant] ?? s.variant).trim()} | ${mbps(s).toFixed(1)} | ${Math.round(s.elements / (s.ms / 1000)).toLocaleString('en-US')} | ${s.firstMs.toFixed(1)} ms | ${(s.rssGrowth / 2 ** 20).toFixed(1)} / ${((s.rssGrowthMax ?? s.rssGrowth) / 2 ** 20).toFixed(1)} MiB | ${(s.retained / 2 ** 20).toFixed(1)} MiB | ${a ? (mbps(s) / mbps(a)).toFixed(2) + '×' : ''} | ${b ? (mbps(s) / mbps(b)).toFixed(2) + '×' : ''} |`,
    );
    if (s.elements !== first.elements || s.lastOffset !== first.lastOffset) {
      lines.push(`| ^ MISMATCH: ${s.elements} elements, last offset ${s.lastOffset} | | | | | | | |`);
    }
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

function mbps(s: Sample): number {
  return s.bytes / 1e6 / (s.ms / 1000);
}

const childVariant = arg('child', '');
if (childVariant) await child(childVariant, arg('body', ''), arg('ranges', ''));
else driver();
