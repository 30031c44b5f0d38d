/**
 * The result model shared by every benchmark and the runner: figures (median with min–max over runs), rows,
 * target checks, the results file, and the one table.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MachineInfo } from './machine.js';
import { benchRoot } from './paths.js';

/** One measured quantity over several runs. */
export interface Figure {
  readonly median: number;
  readonly min: number;
  readonly max: number;
  /** Number of runs. */
  readonly n: number;
  /** Every run's value, in run order. */
  readonly samples: readonly number[];
}

/** Median (mean of the middle two for an even count), min and max of `samples`. */
export function figure(samples: readonly number[]): Figure {
  if (samples.length === 0) throw new Error('figure() of no samples');
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
  return { median, min: sorted[0] as number, max: sorted[sorted.length - 1] as number, n: samples.length, samples: [...samples] };
}

/** The `q`-quantile (0..1) of `samples`, nearest rank. */
export function quantile(samples: readonly number[], q: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank] as number;
}

/** A target and how the measurement fared against it. */
export interface Check {
  /** Human-readable target, e.g. `≥ 1.5× JSON.parse`. */
  readonly target: string;
  /** The compared value shown in the ratio column: a ratio (`1.83×`) or the figure itself (`41 MB`). */
  readonly actual: string;
  readonly pass: boolean;
  /**
   * No comparison was possible (the peer failed to read the body at all): shown as `n/a`, counted neither as
   * met nor as missed. Result files written before this field existed mark it only by an `actual` ending in
   * ` fails`, which {@link isMoot} also recognises.
   */
  readonly moot?: boolean;
}

/** Whether `check` compared nothing (see {@link Check.moot}). */
export function isMoot(check: Check): boolean {
  return check.moot === true || check.actual.endsWith(' fails');
}

/** One line of the table. */
export interface Row {
  /** Which question (benchmark part), e.g. `decode 200 MB`. */
  readonly group: string;
  /** What was measured, e.g. `ledger-rx unvalidated`. */
  readonly subject: string;
  /** The metric and its unit, e.g. `MB/s`. */
  readonly metric: string;
  /** `undefined` when the subject failed (see `note`). */
  readonly value?: Figure | undefined;
  /** Number of decimals to print. */
  readonly digits?: number | undefined;
  readonly note?: string | undefined;
  readonly check?: Check | undefined;
}

/** What one benchmark file writes to `results/<name>.json`. */
export interface BenchResult {
  readonly name: string;
  readonly question: string;
  readonly mode: 'full' | 'quick';
  readonly date: string;
  readonly machine: MachineInfo;
  /** `uptime` load averages before and after the benchmark. */
  readonly load: { readonly before: string; readonly after: string };
  /** CPU speed index (`speedIndex()`, JSON.parse MB/s) before and after the benchmark. */
  readonly speed?: { readonly before: number; readonly after: number };
  readonly durationSeconds: number;
  readonly fixture: Readonly<Record<string, unknown>>;
  readonly rows: readonly Row[];
  /** Anything else worth keeping (raw samples, time series). */
  readonly extra?: Readonly<Record<string, unknown>>;
}

export function resultsFile(name: string, mode: 'full' | 'quick'): string {
  return join(benchRoot, 'results', mode === 'quick' ? `${name}.quick.json` : `${name}.json`);
}

export function writeResult(result: BenchResult): string {
  const file = resultsFile(result.name, result.mode);
  mkdirSync(join(benchRoot, 'results'), { recursive: true });
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  return file;
}

export function readResult(name: string, mode: 'full' | 'quick'): BenchResult {
  return JSON.parse(readFileSync(resultsFile(name, mode), 'utf8')) as BenchResult;
}

/** Formats a number with thousands separators and `digits` decimals. */
export function num(value: number, digits = 0): string {
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

export function ratio(a: number, b: number): string {
  return `${(a / b).toFixed(2)}×`;
}

/** Checks `value ≥ factor × reference` and describes it. */
export function atLeast(value: number, reference: number, factor: number, against: string): Check {
  return { target: `≥ ${factor}× ${against}`, actual: ratio(value, reference), pass: value >= factor * reference };
}

/** Checks `value ≤ limit` (same unit) and describes it. */
export function atMost(value: number, limit: number, unit: string, digits = 0): Check {
  return { target: `≤ ${num(limit, digits)} ${unit}`, actual: `${num(value, digits)} ${unit}`, pass: value <= limit };
}

/** Checks `value ≥ limit` (same unit) and describes it. */
export function atLeastAbsolute(value: number, limit: number, unit: string, digits = 0): Check {
  return { target: `≥ ${num(limit, digits)} ${unit}`, actual: `${num(value, digits)} ${unit}`, pass: value >= limit };
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|');
}

/** The markdown table of `rows` (one header for all). */
export function table(rows: readonly Row[]): string {
  const lines = [
    '| question | subject | metric | median | min–max | target | actual | pass |',
    '|---|---|---|---:|---:|---|---:|:---:|',
  ];
  for (const r of rows) {
    const d = r.digits ?? 0;
    const median = r.value ? num(r.value.median, d) : (r.note ?? 'n/a');
    const range = r.value ? `${num(r.value.min, d)}–${num(r.value.max, d)}` : '';
    const note = r.value && r.note ? ` (${r.note})` : '';
    lines.push(
      `| ${cell(r.group)} | ${cell(r.subject + note)} | ${cell(r.metric)} | ${cell(median)} | ${range} | ${cell(r.check?.target ?? '')} | ${cell(r.check?.actual ?? '')} | ${r.check ? (isMoot(r.check) ? 'n/a' : r.check.pass ? 'pass' : '**MISS**') : ''} |`,
    );
  }
  return lines.join('\n');
}
