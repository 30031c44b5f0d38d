/**
 * Question: which library should `ledger-rx export` write Parquet (and zstd) with? The candidates encode the
 * same realistic `events` table (10^5 rows by default: created and exercised events of an Iou template, with
 * ~140-character contract ids, party lists and a JSON payload) to one zstd-compressed Parquet file (snappy
 * for the hyparquet-writer baseline), each in a fresh process of its own, several rounds alternating the
 * order:
 *
 * - `hyparquet-zstd-native`: hyparquet-writer (pure JS) with zstd from `@toondepauw/node-zstd` (napi-rs,
 *   prebuilt binaries shipped as npm packages);
 * - `hyparquet-zstd-wasm`: hyparquet-writer with zstd from `@bokuweb/zstd-wasm`;
 * - `hyparquet-snappy`: hyparquet-writer with its built-in snappy (no zstd: the baseline);
 * - `parquet-wasm`: parquet-wasm (Rust parquet crate in WebAssembly) from an apache-arrow table;
 * - `duckdb`: DuckDB's appender into an in-memory table, then `COPY … TO (FORMAT parquet, COMPRESSION zstd)`.
 *
 * `@dsnp/parquetjs` is not measured: its current release requires Node >= 24.18 (`npm view @dsnp/parquetjs
 * engines`), and the last release for Node 20 has no zstd and depends on the AWS SDK.
 *
 * Reported per writer: rows/s of the encode and write (from the rows in memory as plain JS values to the
 * file on disk; building the fixture is not timed), bytes per row of the file, and the process's peak RSS
 * (`ru_maxrss`, fixture included, the same in every process). The zstd part compares the two zstd
 * libraries alone on NDJSON text (MB/s of input at level 3, and the ratio), for `--format ndjson-zstd`.
 *
 * Run (no build of the library needed):
 *
 *     npm --prefix benchmarks run build && node benchmarks/node_modules/.bench-build/export/parquet-writers.bench.js [--rows=100000] [--runs=3]
 *
 * The figures and the decision are in docs/analytics-export.md.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DataType as ArrowDataType, Vector as ArrowVector } from 'apache-arrow';
import { numberOption, option } from '../lib/args.js';

const writers = ['hyparquet-zstd-native', 'hyparquet-zstd-wasm', 'hyparquet-snappy', 'parquet-wasm', 'duckdb'] as const;
type Writer = (typeof writers)[number];

interface EventRow {
  offset: number;
  update_id: string;
  node_id: number;
  kind: string;
  contract_id: string;
  template_id: string;
  package_id: string;
  package_name: string;
  payload: string;
  choice: string | null;
  consuming: boolean | null;
  acting_parties: string[];
  signatories: string[];
  observers: string[];
  witnesses: string[];
  record_time: number;
}
const columns = ['offset', 'update_id', 'node_id', 'kind', 'contract_id', 'template_id', 'package_id', 'package_name', 'payload', 'choice', 'consuming', 'acting_parties', 'signatories', 'observers', 'witnesses', 'record_time'] as const;

function hex(n: number, seed: number): string {
  let s = '';
  let x = seed >>> 0;
  while (s.length < n) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    s += x.toString(16).padStart(8, '0');
  }
  return s.slice(0, n);
}

/** The fixture, through JSON text so that its strings are flat, as decoded elements' are. */
function fixture(rows: number): EventRow[] {
  const party = (i: number) => `party-${i % 50}::1220${hex(64, i % 50)}`;
  const pkg = hex(64, 7);
  const t0 = Date.UTC(2026, 10, 27) * 1000;
  const out: EventRow[] = [];
  for (let i = 0; i < rows; i++) {
    const create = i % 3 !== 2;
    out.push({
      offset: 1000 + i,
      update_id: '1220' + hex(64, i),
      node_id: 0,
      kind: create ? 'created' : 'exercised',
      contract_id: '00' + hex(136, i * 7),
      template_id: '#iou-model:Iou:Iou',
      package_id: pkg,
      package_name: 'iou-model',
      payload: JSON.stringify({ issuer: party(i), owner: party(i + 1), currency: 'USD', amount: `${i}.${String(i % 10000).padStart(10, '0')}`, observers: [] }),
      choice: create ? null : 'Iou_Transfer',
      consuming: create ? null : true,
      acting_parties: create ? [] : [party(i + 1)],
      signatories: [party(i)],
      observers: [party(i + 1)],
      witnesses: [party(i), party(i + 1)],
      record_time: t0 + i * 1000,
    });
  }
  return JSON.parse(JSON.stringify(out)) as EventRow[];
}

type Compress = (bytes: Uint8Array) => Uint8Array;

async function zstdNative(): Promise<Compress> {
  const { Encoder } = await import('@toondepauw/node-zstd');
  const encoder = new Encoder(3);
  return (b) => encoder.encodeSync(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
}

async function zstdWasm(): Promise<Compress> {
  const z = await import('@bokuweb/zstd-wasm');
  await z.init();
  return (b) => z.compress(b, 3);
}

async function writeWith(writer: Writer, data: readonly EventRow[], file: string): Promise<void> {
  if (writer.startsWith('hyparquet')) {
    const { parquetWrite, ByteWriter } = await import('hyparquet-writer');
    const compress = writer === 'hyparquet-zstd-native' ? await zstdNative() : writer === 'hyparquet-zstd-wasm' ? await zstdWasm() : undefined;
    const list = (name: string) => [
      { name, repetition_type: 'REQUIRED', num_children: 1, converted_type: 'LIST' },
      { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
      { name: 'element', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED' },
    ];
    const text = (name: string, optional = false) => ({ name, type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: optional ? 'OPTIONAL' : 'REQUIRED' });
    const schema = [
      { name: 'root', num_children: columns.length },
      { name: 'offset', type: 'INT64', repetition_type: 'REQUIRED' },
      text('update_id'),
      { name: 'node_id', type: 'INT32', repetition_type: 'REQUIRED' },
      text('kind'),
      text('contract_id'),
      text('template_id'),
      text('package_id'),
      text('package_name'),
      { name: 'payload', type: 'BYTE_ARRAY', converted_type: 'JSON', repetition_type: 'OPTIONAL' },
      text('choice', true),
      { name: 'consuming', type: 'BOOLEAN', repetition_type: 'OPTIONAL' },
      ...list('acting_parties'),
      ...list('signatories'),
      ...list('observers'),
      ...list('witnesses'),
      { name: 'record_time', type: 'INT64', repetition_type: 'REQUIRED', logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MICROS' } },
    ];
    const columnData = columns.map((c) => ({ name: c, data: data.map((r) => (c === 'offset' || c === 'record_time' ? BigInt(r[c]) : r[c])) }));
    const out = new ByteWriter();
    parquetWrite({
      writer: out,
      columnData,
      schema: schema as Parameters<typeof parquetWrite>[0]['schema'],
      codec: compress ? 'ZSTD' : 'SNAPPY',
      ...(compress ? { compressors: { ZSTD: compress } } : {}),
      rowGroupSize: 100_000,
    } as Parameters<typeof parquetWrite>[0]);
    writeFileSync(file, new Uint8Array(out.getBuffer()));
  } else if (writer === 'parquet-wasm') {
    const arrow = await import('apache-arrow');
    const pw = await import('parquet-wasm/node');
    const list = () => new arrow.List(new arrow.Field('element', new arrow.Utf8(), false));
    const types: Record<string, ArrowDataType> = {
      offset: new arrow.Int64(), update_id: new arrow.Utf8(), node_id: new arrow.Int32(), kind: new arrow.Utf8(), contract_id: new arrow.Utf8(), template_id: new arrow.Utf8(),
      package_id: new arrow.Utf8(), package_name: new arrow.Utf8(), payload: new arrow.Utf8(), choice: new arrow.Utf8(), consuming: new arrow.Bool(),
      acting_parties: list(), signatories: list(), observers: list(), witnesses: list(), record_time: new arrow.TimestampMicrosecond('UTC'),
    };
    const vectors: Record<string, ArrowVector> = {};
    // apache-arrow takes a microsecond timestamp as milliseconds (it multiplies by 1000).
    for (const c of columns) vectors[c] = arrow.vectorFromArray(data.map((r) => (c === 'offset' ? BigInt(r[c]) : c === 'record_time' ? r[c] / 1000 : r[c])), types[c] as ArrowDataType);
    const table = new arrow.Table(vectors);
    const props = new pw.WriterPropertiesBuilder().setCompression(pw.Compression.ZSTD).build();
    writeFileSync(file, pw.writeParquet(pw.Table.fromIPCStream(arrow.tableToIPC(table, 'stream')), props));
  } else {
    const d = await import('@duckdb/node-api');
    const instance = await d.DuckDBInstance.create(':memory:');
    const con = await instance.connect();
    await con.run(
      `create table e("offset" bigint, update_id varchar, node_id integer, kind varchar, contract_id varchar, template_id varchar, package_id varchar, package_name varchar, payload json, choice varchar, consuming boolean, acting_parties varchar[], signatories varchar[], observers varchar[], witnesses varchar[], record_time timestamptz)`,
    );
    const app = await con.createAppender('e');
    for (const r of data) {
      app.appendBigInt(BigInt(r.offset));
      app.appendVarchar(r.update_id);
      app.appendInteger(r.node_id);
      app.appendVarchar(r.kind);
      app.appendVarchar(r.contract_id);
      app.appendVarchar(r.template_id);
      app.appendVarchar(r.package_id);
      app.appendVarchar(r.package_name);
      app.appendVarchar(r.payload);
      if (r.choice === null) app.appendNull();
      else app.appendVarchar(r.choice);
      if (r.consuming === null) app.appendNull();
      else app.appendBoolean(r.consuming);
      for (const l of [r.acting_parties, r.signatories, r.observers, r.witnesses]) app.appendList(d.listValue(l), d.LIST(d.VARCHAR));
      app.appendTimestampTZ(new d.DuckDBTimestampTZValue(BigInt(r.record_time)));
      app.endRow();
    }
    app.closeSync();
    await con.run(`copy e to '${file}' (format parquet, compression zstd)`);
    con.closeSync();
  }
}

interface Measured {
  readonly writer: string;
  readonly rowsPerSecond: number;
  readonly bytesPerRow: number;
  readonly maxRssMiB: number;
}

async function child(writer: Writer, rows: number): Promise<void> {
  const data = fixture(rows);
  const dir = mkdtempSync(join(tmpdir(), 'ledger-rx-pq-'));
  const file = join(dir, 'out.parquet');
  const start = performance.now();
  await writeWith(writer, data, file);
  const seconds = (performance.now() - start) / 1000;
  const size = statSync(file).size;
  rmSync(dir, { recursive: true, force: true });
  const m: Measured = { writer, rowsPerSecond: rows / seconds, bytesPerRow: size / rows, maxRssMiB: process.resourceUsage().maxRSS / 1024 };
  process.stdout.write(`${JSON.stringify(m)}\n`);
}

async function zstdChild(lib: 'native' | 'wasm', rows: number): Promise<void> {
  const text = Buffer.from(fixture(rows).map((r) => JSON.stringify(r)).join('\n') + '\n');
  const compress = lib === 'native' ? await zstdNative() : await zstdWasm();
  const start = performance.now();
  const out = compress(text);
  const seconds = (performance.now() - start) / 1000;
  process.stdout.write(`${JSON.stringify({ lib, mbPerSecond: text.length / 1e6 / seconds, ratio: text.length / out.length })}\n`);
}

const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

async function main(): Promise<void> {
  const rows = numberOption('rows', 100_000);
  const role = option('child', '');
  if (role.startsWith('zstd-')) return zstdChild(role === 'zstd-native' ? 'native' : 'wasm', rows);
  if (role !== '') return child(role as Writer, rows);
  const runs = numberOption('runs', 3);
  const self = fileURLToPath(import.meta.url);
  const results = new Map<string, Measured[]>();
  const zstd = new Map<string, { mbPerSecond: number; ratio: number }[]>();
  const before = loadavg();
  for (let run = 0; run < runs; run++) {
    const order = run % 2 === 0 ? writers : [...writers].reverse();
    for (const writer of order) {
      const m = JSON.parse(execFileSync(process.execPath, [self, `--child=${writer}`, `--rows=${rows}`], { encoding: 'utf8', maxBuffer: 1 << 20 })) as Measured;
      results.set(writer, [...(results.get(writer) ?? []), m]);
    }
    for (const lib of ['zstd-native', 'zstd-wasm']) {
      const z = JSON.parse(execFileSync(process.execPath, [self, `--child=${lib}`, `--rows=${rows}`], { encoding: 'utf8' })) as { mbPerSecond: number; ratio: number };
      zstd.set(lib, [...(zstd.get(lib) ?? []), z]);
    }
  }
  const after = loadavg();
  console.log(`${rows} event rows, ${runs} runs, medians; load before ${before.map((l) => l.toFixed(2)).join(', ')} → after ${after.map((l) => l.toFixed(2)).join(', ')}`);
  console.log('| writer | rows/s (min–max) | bytes/row | peak RSS MiB |');
  console.log('|---|---:|---:|---:|');
  for (const [writer, ms] of results) {
    const r = ms.map((m) => m.rowsPerSecond);
    console.log(`| ${writer} | ${Math.round(median(r))} (${Math.round(Math.min(...r))}–${Math.round(Math.max(...r))}) | ${median(ms.map((m) => m.bytesPerRow)).toFixed(1)} | ${Math.round(median(ms.map((m) => m.maxRssMiB)))} |`);
  }
  console.log('| zstd (level 3, NDJSON of the rows) | MB/s | ratio |');
  console.log('|---|---:|---:|');
  for (const [lib, zs] of zstd) console.log(`| ${lib} | ${median(zs.map((z) => z.mbPerSecond)).toFixed(0)} | ${median(zs.map((z) => z.ratio)).toFixed(2)} |`);
}

await main();
