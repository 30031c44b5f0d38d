import { timestampMicros } from './timestamp-micros.js';

/** A `timestamptz` value {@link CopyBinary} left NULL for PostgreSQL to read from its text after the COPY. */
export interface LateTimestamp {
  /** The row's index in its writer (0: the first row). */
  readonly row: number;
  readonly column: string;
  readonly text: string;
}

/** Bytes of a fresh chunk; a longer value gets a chunk of its own size. */
const chunkBytes = 256 * 1024;
/** A string shorter than this is written by a loop while it is ASCII (cheaper than a call into the encoder). */
const shortString = 256;
/** The file header: signature, flags (no OIDs), no header extension. */
const header = Buffer.from([0x50, 0x47, 0x43, 0x4f, 0x50, 0x59, 0x0a, 0xff, 0x0d, 0x0a, 0x00, 0, 0, 0, 0, 0, 0, 0, 0]);
/** The file trailer: a field count of -1. */
const trailer = Buffer.from([0xff, 0xff]);
/** Writes `value` (an int32, or a uint32) big-endian into `buffer` at `at` (no range checks: the caller made room). */
function int32(buffer: Buffer, value: number, at: number): void {
  buffer[at] = value >>> 24;
  buffer[at + 1] = value >>> 16;
  buffer[at + 2] = value >>> 8;
  buffer[at + 3] = value;
}

/** The OID of `text`, the element type of a `text[]`. */
const textOid = 25;
const two32 = 2 ** 32;
const two26 = 2 ** 26;

/**
 * The data of one `COPY table (columns) FROM STDIN WITH (FORMAT binary)` (docs/ingest.md, "COPY's binary format"):
 * the header, then per row its number of fields (int16) and each field as its length in bytes (int32, -1 for NULL)
 * and its value in the type's binary form (`bigint` and `integer` big-endian, `boolean` one byte, `text` and `json`
 * the UTF-8 text, `jsonb` a version byte 1 and the text, `timestamptz` microseconds since 2000-01-01 UTC as an int64,
 * `text[]` the array header with element type `text`, then each element with its length), then the trailer. Nothing
 * is escaped: every byte reads back as it was. Rows are written into buffers outside the JavaScript heap as they are
 * added, so a batch waiting for its commit costs the garbage collector nothing; {@link chunks} gives them with the
 * header and trailer.
 *
 * Every row starts with the same first column (the stream's name), written once per row from its encoded bytes;
 * `columns` counts it. Call {@link row}, then one method per remaining column in the statement's order, the method
 * of the column's type. {@link position} is where the next field starts, in bytes from the start of the data, and
 * {@link bytes} copies fields already written, by their positions, from this writer or another (a contract's columns
 * that `created_events` and `active_contracts` share are encoded once).
 */
export class CopyBinary {
  /**
   * The `timestamptz` values left NULL, in the order written: a text not in the participant's form, which
   * {@link timestamp} leaves to PostgreSQL (the caller sets them by a statement after the COPY).
   */
  readonly late: LateTimestamp[] = [];
  private readonly done: Buffer[] = [];
  /** Bytes in {@link done}. */
  private doneBytes = 0;
  private buffer: Buffer = Buffer.allocUnsafe(0);
  private at = 0;
  /** Where each row starts, for {@link chunksOfRows}. */
  private readonly starts: number[] = [];
  /** The last timestamp converted (a batch repeats them: a transaction's effective time is its contracts' `createdAt`). */
  private lastTimestamp: string | undefined;
  private lastHigh = 0;
  private lastLow = 0;
  /** The field count and the first column of every row. */
  private readonly first: Buffer;

  constructor(firstColumn: string, columns: number) {
    const name = Buffer.from(firstColumn, 'utf8');
    this.first = Buffer.allocUnsafe(6 + name.length);
    this.first.writeInt16BE(columns, 0);
    this.first.writeInt32BE(name.length, 2);
    name.copy(this.first, 6);
  }

  /** Rows written. */
  get rows(): number {
    return this.starts.length;
  }

  /** Where the next field starts: bytes written so far. */
  get position(): number {
    return this.doneBytes + this.at;
  }

  /** Starts a row with the first column. */
  row(): this {
    this.room(this.first.length);
    this.starts.push(this.doneBytes + this.at);
    this.at += this.first.copy(this.buffer, this.at);
    return this;
  }

  /** A `text` field; `null` is SQL NULL. */
  text(value: string | null): this {
    if (value === null) return this.null();
    this.string(value, false);
    return this;
  }

  /** A `text` or `json` field given as its UTF-8 encoding (the bytes a transport received it as), copied as they are. */
  textWithBytes(bytes: Uint8Array): this {
    this.room(4 + bytes.length);
    int32(this.buffer, bytes.length, this.at);
    this.buffer.set(bytes, this.at + 4);
    this.at += 4 + bytes.length;
    return this;
  }

  /** A `json` field; `null` is SQL NULL. */
  json(value: string | null): this {
    return this.text(value);
  }

  /** A `jsonb` field, from a JSON text (PostgreSQL parses it); `null` is SQL NULL. */
  jsonb(value: string | null): this {
    if (value === null) return this.null();
    this.string(value, true);
    return this;
  }

  /** An `integer` field. */
  int4(value: number): this {
    this.room(8);
    int32(this.buffer, 4, this.at);
    int32(this.buffer, value, this.at + 4);
    this.at += 8;
    return this;
  }

  /** A `bigint` field (a safe integer). */
  int8(value: number): this {
    this.room(12);
    int32(this.buffer, 8, this.at);
    this.int64(Math.floor(value / two32), value);
    return this;
  }

  /** A `boolean` field. */
  bool(value: boolean): this {
    this.room(5);
    int32(this.buffer, 1, this.at);
    this.buffer[this.at + 4] = value ? 1 : 0;
    this.at += 5;
    return this;
  }

  /** A `text[]` field: one dimension from 1, no NULL element (an empty list: the empty array). */
  textArray(values: readonly string[]): this {
    if (values.length === 0) {
      this.room(16);
      int32(this.buffer, 12, this.at);
      int32(this.buffer, 0, this.at + 4);
      int32(this.buffer, 0, this.at + 8);
      int32(this.buffer, textOid, this.at + 12);
      this.at += 16;
      return this;
    }
    this.room(24);
    const start = this.at;
    int32(this.buffer, 1, start + 4);
    int32(this.buffer, 0, start + 8);
    int32(this.buffer, textOid, start + 12);
    int32(this.buffer, values.length, start + 16);
    int32(this.buffer, 1, start + 20);
    this.at += 24;
    const from = this.position - 24;
    for (const v of values) this.string(v, false);
    // the array's length, once its elements are written (they may have moved to a new chunk with it)
    this.patchLength(from, this.position - from - 4);
    return this;
  }

  /**
   * A `timestamptz` field from its text (`null` is SQL NULL), converted as PostgreSQL reads it (`timestampMicros`)
   * when it is in the participant's RFC 3339 form, else left NULL and listed in {@link late} with `column`.
   */
  timestamp(value: string | null, column: string): this {
    if (value === null) return this.null();
    this.room(12);
    if (value !== this.lastTimestamp) {
      const t = timestampMicros(value);
      if (t === undefined) {
        this.late.push({ row: this.starts.length - 1, column, text: value });
        return this.null();
      }
      // seconds × 10^6 + micros as an int64 without losing digits: seconds × 15625 is exact, and × 64 a shift
      const m = t.seconds * 15_625;
      const low26 = m - Math.floor(m / two26) * two26;
      const low = low26 * 64 + t.micros;
      this.lastTimestamp = value;
      this.lastHigh = (m - low26) / two26 + Math.floor(low / two32);
      this.lastLow = low;
    }
    int32(this.buffer, 8, this.at);
    this.int64(this.lastHigh, this.lastLow);
    return this;
  }

  /** The fields written from `start` to `end` (two {@link position}s of `from`, within one row), copied as they are. */
  bytes(from: CopyBinary, start: number, end: number): this {
    this.room(end - start);
    from.read(start, end, this.buffer, this.at);
    this.at += end - start;
    return this;
  }

  /** The data so far with its header and trailer (none when no row was written); the writer is finished. */
  chunks(): Buffer[] {
    if (this.at > 0) this.done.push(this.buffer.subarray(0, this.at));
    this.doneBytes += this.at;
    this.buffer = Buffer.allocUnsafe(0);
    this.at = 0;
    return this.starts.length === 0 ? [] : [header, ...this.done, trailer];
  }

  /**
   * The data of the rows `order` gives (their indices, in the order they were written: 0 is the first row), in that
   * order, with the header and trailer; the writer is finished. `order` may leave rows out and must not repeat one;
   * no rows: no data.
   */
  chunksOfRows(order: Iterable<number>): Buffer[] {
    const total = this.doneBytes + this.at;
    const { starts } = this;
    let bytes = 0;
    const rows: number[] = [];
    for (const i of order) {
      rows.push(i);
      bytes += (starts[i + 1] ?? total) - (starts[i] as number);
    }
    if (rows.length === 0) {
      this.chunks();
      return [];
    }
    const out = Buffer.allocUnsafe(bytes);
    let at = 0;
    for (const i of rows) {
      const start = starts[i] as number;
      const end = starts[i + 1] ?? total;
      this.read(start, end, out, at);
      at += end - start;
    }
    this.chunks();
    return [header, out, trailer];
  }

  /** A NULL field. */
  private null(): this {
    this.room(4);
    int32(this.buffer, -1, this.at);
    this.at += 4;
    return this;
  }

  /** A field of `value`'s UTF-8 bytes, after a version byte 1 when `jsonb`. */
  private string(value: string, jsonb: boolean): void {
    const n = value.length;
    const prefix = jsonb ? 5 : 4;
    // at most three UTF-8 bytes per UTF-16 code unit (a surrogate pair: four bytes for two units)
    this.room(prefix + n * 3);
    const { buffer } = this;
    const start = this.at;
    if (jsonb) buffer[start + 4] = 1;
    let at = start + prefix;
    let i = 0;
    if (n < shortString) {
      for (; i < n; i++) {
        const c = value.charCodeAt(i);
        if (c >= 0x80) break;
        buffer[at++] = c;
      }
    }
    if (i < n) at = start + prefix + buffer.write(value, start + prefix);
    int32(buffer, at - start - 4, start);
    this.at = at;
  }

  /** Writes an int64 of `high` (its upper 32 bits, signed) and `low` (the lower 32, taken modulo 2^32). */
  private int64(high: number, low: number): void {
    int32(this.buffer, high | 0, this.at + 4);
    int32(this.buffer, low - Math.floor(low / two32) * two32, this.at + 8);
    this.at += 12;
  }

  /** Writes `length` as the int32 at `position` (which may lie in an earlier chunk). */
  private patchLength(position: number, length: number): void {
    if (position >= this.doneBytes) {
      int32(this.buffer, length, position - this.doneBytes);
      return;
    }
    const bytes = Buffer.allocUnsafe(4);
    bytes.writeInt32BE(length, 0);
    let base = 0;
    for (const chunk of this.done) {
      for (let k = 0; k < 4; k++) {
        const p = position + k - base;
        if (p >= 0 && p < chunk.length) chunk[p] = bytes[k] as number;
      }
      base += chunk.length;
    }
  }

  /** Copies the bytes from `start` to `end` (positions) into `target` at `at`. */
  private read(start: number, end: number, target: Buffer, at: number): void {
    const current = this.doneBytes;
    if (start >= current) {
      this.buffer.copy(target, at, start - current, end - current);
      return;
    }
    let base = 0;
    for (const chunk of [...this.done, this.buffer.subarray(0, this.at)]) {
      const from = Math.max(start, base);
      const to = Math.min(end, base + chunk.length);
      if (from < to) at += chunk.copy(target, at, from - base, to - base);
      base += chunk.length;
      if (base >= end) return;
    }
  }

  /** Makes room for `bytes` more in the current chunk, starting a new one when needed. */
  private room(bytes: number): void {
    if (this.at + bytes <= this.buffer.length) return;
    if (this.at > 0) this.done.push(this.buffer.subarray(0, this.at));
    this.doneBytes += this.at;
    this.buffer = Buffer.allocUnsafe(Math.max(chunkBytes, bytes));
    this.at = 0;
  }
}
