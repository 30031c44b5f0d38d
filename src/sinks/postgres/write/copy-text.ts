import { pgArrayLiteral } from '../pg-array-literal.js';

/** Bytes of a fresh chunk; a longer value gets a chunk of its own size. */
const chunkBytes = 256 * 1024;
/** A value at least this long is encoded on its own (not joined to the row's other fields first). */
const longValue = 128;
/** The characters COPY's text format escapes: backslash, and the field and row separators (tab, newline, CR). */
const specials = /[\\\t\n\r]/g;
const escapes: Readonly<Record<string, string>> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };
const escape = (c: string): string => escapes[c] as string;
const backslash = 0x5c;
const tab = 0x09;
const newline = 0x0a;
const carriageReturn = 0x0d;
/** A view of bytes as a Buffer (for its `indexOf`, which searches natively). */
const asBuffer = (bytes: Uint8Array): Buffer => (Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));

/**
 * The data of one `COPY table (columns) FROM STDIN` in PostgreSQL's text format (docs/ingest.md, "COPY"): one
 * line per row, fields separated by a tab, `\N` for NULL, and in every value a backslash, tab, newline and carriage
 * return written as `\\`, `\t`, `\n`, `\r` (so no value can end a field, a row or the data early, and every byte
 * reads back as it was). Rows are written as UTF-8 into buffers outside the JavaScript heap as they are added, so a
 * batch waiting for its commit costs the garbage collector nothing; {@link chunks} gives them to the driver.
 *
 * Every row starts with the same first column (the stream's name), written once per row from its encoded bytes.
 * Call {@link row}, then one method per remaining column in the statement's order; a row ends at the next
 * {@link row} or at {@link chunks}. The short fields of a row are joined and encoded together (one encoding per
 * run of short fields, not one per field); {@link position} is where the next field starts, in bytes from the
 * start of the data, and {@link bytes} copies fields already written, by their positions, from this writer or
 * another (a contract's columns that `created_events` and `active_contracts` share are encoded once).
 */
export class CopyText {
  private readonly done: Buffer[] = [];
  /** Bytes in {@link done}. */
  private doneBytes = 0;
  private buffer: Buffer = Buffer.allocUnsafe(0);
  private at = 0;
  /** Escaped fields (each with its leading tab) not encoded yet. */
  private pending = '';
  /** Where each row starts, for {@link chunksOfRows}. */
  private readonly starts: number[] = [];
  private open = false;
  private readonly first: Buffer;

  constructor(firstColumn: string) {
    this.first = Buffer.from(copyEscape(firstColumn), 'utf8');
  }

  /** Rows written. */
  get rows(): number {
    return this.starts.length;
  }

  /** Where the next field starts: bytes written so far. */
  get position(): number {
    this.flush();
    return this.doneBytes + this.at;
  }

  /** Starts a row with the first column. */
  row(): this {
    this.flush();
    this.room(this.first.length + 1);
    if (this.open) this.buffer[this.at++] = newline;
    this.open = true;
    this.starts.push(this.doneBytes + this.at);
    this.at += this.first.copy(this.buffer, this.at);
    return this;
  }

  /** A text (or timestamptz …) field; `null` is SQL NULL. */
  text(value: string | null): this {
    if (value === null) return this.short('\t\\N');
    const escaped = needsEscape(value) ? value.replace(specials, escape) : value;
    return escaped.length >= longValue ? this.long(escaped) : this.short(`\t${escaped}`);
  }

  /**
   * A JSON field, from a text `JSON.stringify` wrote (which never holds a raw control character, so only its
   * backslashes need escaping); `null` is SQL NULL.
   */
  json(value: string | null): this {
    if (value === null) return this.short('\t\\N');
    const escaped = value.includes('\\') ? value.replaceAll('\\', '\\\\') : value;
    return escaped.length >= longValue ? this.long(escaped) : this.short(`\t${escaped}`);
  }

  /**
   * A text field given with its UTF-8 encoding `bytes` (the same text: the bytes a transport received it as), which
   * are copied as they are when nothing in them needs escaping (else `text` is written as {@link text} writes it).
   */
  textWithBytes(text: string, bytes: Uint8Array): this {
    const b = asBuffer(bytes);
    if (b.indexOf(backslash) >= 0 || b.indexOf(tab) >= 0 || b.indexOf(newline) >= 0 || b.indexOf(carriageReturn) >= 0) return this.text(text);
    this.flush();
    this.room(b.length + 1);
    this.buffer[this.at++] = tab;
    this.at += b.copy(this.buffer, this.at);
    return this;
  }

  /** An integer field (bigint, integer). */
  int(value: number): this {
    return this.short(`\t${value}`);
  }

  /** A boolean field. */
  bool(value: boolean): this {
    return this.short(value ? '\tt' : '\tf');
  }

  /** A `text[]` field, from its array literal (`pgArrayLiteral`). */
  textArray(values: readonly string[]): this {
    return this.text(pgArrayLiteral(values));
  }

  /**
   * The fields written from `start` to `end` (two {@link position}s of `from`, this writer or another, within one
   * row), copied as they are: separators, escapes and all.
   */
  bytes(from: CopyText, start: number, end: number): this {
    this.flush();
    from.flush();
    this.room(end - start);
    from.read(start, end, this.buffer, this.at);
    this.at += end - start;
    return this;
  }

  /** The data so far, ending with its last row's newline (none when no row was written); the writer is finished. */
  chunks(): Buffer[] {
    this.end();
    if (this.at > 0) this.done.push(this.buffer.subarray(0, this.at));
    this.doneBytes += this.at;
    this.buffer = Buffer.allocUnsafe(0);
    this.at = 0;
    return this.done;
  }

  /**
   * The data of the rows `order` gives (their indices, in the order they were written: 0 is the first row), in that
   * order, each ending with its newline; the writer is finished. `order` may leave rows out and must not repeat one.
   */
  chunksOfRows(order: Iterable<number>): Buffer[] {
    this.end();
    const total = this.doneBytes + this.at;
    const { starts } = this;
    let bytes = 0;
    const rows: number[] = [];
    for (const i of order) {
      rows.push(i);
      bytes += (starts[i + 1] ?? total) - (starts[i] as number);
    }
    if (bytes === 0) {
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
    return [out];
  }

  /** Ends the open row with its newline. */
  private end(): void {
    this.flush();
    if (this.open) {
      this.room(1);
      this.buffer[this.at++] = newline;
      this.open = false;
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

  /** Adds escaped fields (with their tabs) to the run of short fields. */
  private short(fields: string): this {
    this.pending += fields;
    return this;
  }

  /** Writes the run of short fields, then a tab and `escaped` (a long value) on their own. */
  private long(escaped: string): this {
    this.flush();
    // at most three UTF-8 bytes per UTF-16 code unit (a surrogate pair: four bytes for two units)
    this.room(escaped.length * 3 + 1);
    this.buffer[this.at++] = tab;
    this.at += this.buffer.write(escaped, this.at);
    return this;
  }

  /** Encodes the run of short fields. */
  private flush(): void {
    const text = this.pending;
    if (text === '') return;
    this.pending = '';
    this.room(text.length * 3);
    this.at += this.buffer.write(text, this.at);
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

/** Whether `value` holds a character COPY's text format escapes (four native searches: faster than a regular expression). */
function needsEscape(value: string): boolean {
  return value.includes('\\') || value.includes('\t') || value.includes('\n') || value.includes('\r');
}

/** `value` escaped for COPY's text format (see {@link CopyText}). Pure. */
function copyEscape(value: string): string {
  return needsEscape(value) ? value.replace(specials, escape) : value;
}
