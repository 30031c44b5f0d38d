import { Buffer } from 'node:buffer';
import { JsonArrayScanner, type JsonArrayScannerOptions } from '../../src/streams/index.js';

/** What a scanner delivered for a body, and the error it threw, if any. */
export interface ScanResult {
  readonly values: unknown[];
  readonly error: unknown;
}

/** Splits `bytes` into chunks of `size` bytes (the last may be shorter). */
export function chunksOf(bytes: Uint8Array, size: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, Math.min(bytes.length, i + size)));
  return out;
}

/** Splits `bytes` at the given cut positions. */
export function splitAt(bytes: Uint8Array, cuts: readonly number[]): Uint8Array[] {
  const out: Uint8Array[] = [];
  let from = 0;
  for (const cut of cuts) {
    out.push(bytes.subarray(from, cut));
    from = cut;
  }
  out.push(bytes.subarray(from));
  return out;
}

/** Feeds `chunks` to a fresh scanner, then `end()` (unless `end` is false). */
export function scan(chunks: readonly Uint8Array[], options: JsonArrayScannerOptions = {}, end = true): ScanResult {
  const values: unknown[] = [];
  const scanner = new JsonArrayScanner((value, index) => {
    if (index !== values.length) throw new Error(`index ${index} delivered after ${values.length} elements`);
    values.push(value);
  }, options);
  try {
    for (const chunk of chunks) scanner.write(chunk);
    if (end) scanner.end();
  } catch (error) {
    return { values, error };
  }
  return { values, error: undefined };
}

/** `scan` of a text in chunks of `size` bytes. */
export function scanText(text: string | Uint8Array, size = Number.MAX_SAFE_INTEGER, options: JsonArrayScannerOptions = {}): ScanResult {
  const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  return scan(chunksOf(bytes, Math.max(1, Math.min(size, bytes.length))), options);
}
