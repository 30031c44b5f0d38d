import { pgArrayLiteral } from '../pg-array-literal.js';

/** Bytes of a fresh chunk; a longer value gets a chunk of its own size. */
const chunkBytes = 256 * 1024;
/** The characters COPY's text format escapes: backslash, and the field and row separators (tab, newline, CR). */
const special = /[\\\t\n\r]/;
const specials = /[\\\t\n\r]/g;
const escapes: Readonly<Record<string, string>> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };
const escape = (c: string): string => escapes[c] as string;
const tab = 0x09;
const newline = 0x0a;

/**
 * The data of one `COPY table (columns) FROM STDIN` in PostgreSQL's text format (docs/ingest.md, "COPY"): one
 * line per row, fields separated by a tab, `\N` for NULL, and in every value a backslash, tab, newline and carriage
 * return written as `\\`, `\t`, `\n`, `\r` (so no value can end a field, a row or the data early, and every byte
 * reads back as it was). Rows are written as UTF-8 into buffers outside the JavaScript heap as they are added, so a
 * batch waiting for its commit costs the garbage collector nothing; {@link chunks} gives them to the driver.
 *
 * Every row starts with the same first column (the stream's name), written once per row from its encoded bytes.
 * Call {@link row}, then one method per remaining column in the statement's order; a row ends at the next
 * {@link row} or at {@link chunks}.
 */
export class CopyText {
  private readonly done: Buffer[] = [];
  private buffer: Buffer = Buffer.allocUnsafe(0);
  private at = 0;
  private count = 0;
  private open = false;
  private readonly first: Buffer;

  constructor(firstColumn: string) {
    this.first = Buffer.from(copyEscape(firstColumn), 'utf8');
  }

  /** Rows written. */
  get rows(): number {
    return this.count;
  }

  /** Starts a row with the first column. */
  row(): this {
    this.room(this.first.length + 1);
    if (this.open) this.buffer[this.at++] = newline;
    this.open = true;
    this.count++;
    this.at += this.first.copy(this.buffer, this.at);
    return this;
  }

  /** A text (or json, jsonb, timestamptz …) field; `null` is SQL NULL. */
  text(value: string | null): this {
    if (value === null) return this.raw('\\N');
    return this.raw(copyEscape(value));
  }

  /** An integer field (bigint, integer). */
  int(value: number): this {
    return this.raw(String(value));
  }

  /** A boolean field. */
  bool(value: boolean): this {
    return this.raw(value ? 't' : 'f');
  }

  /** A `text[]` field, from its array literal (`pgArrayLiteral`). */
  textArray(values: readonly string[]): this {
    return this.text(pgArrayLiteral(values));
  }

  /** The data so far, ending with its last row's newline (none when no row was written); the writer is finished. */
  chunks(): Buffer[] {
    if (this.open) {
      this.room(1);
      this.buffer[this.at++] = newline;
      this.open = false;
    }
    if (this.at > 0) this.done.push(this.buffer.subarray(0, this.at));
    this.buffer = Buffer.allocUnsafe(0);
    this.at = 0;
    return this.done;
  }

  /** Writes a field separator and `text` as it is (already escaped). */
  private raw(text: string): this {
    // at most three UTF-8 bytes per UTF-16 code unit (a surrogate pair: four bytes for two units)
    this.room(text.length * 3 + 1);
    this.buffer[this.at++] = tab;
    this.at += this.buffer.write(text, this.at);
    return this;
  }

  /** Makes room for `bytes` more in the current chunk, starting a new one when needed. */
  private room(bytes: number): void {
    if (this.at + bytes <= this.buffer.length) return;
    if (this.at > 0) this.done.push(this.buffer.subarray(0, this.at));
    this.buffer = Buffer.allocUnsafe(Math.max(chunkBytes, bytes));
    this.at = 0;
  }
}

/** `value` escaped for COPY's text format (see {@link CopyText}). Pure. */
function copyEscape(value: string): string {
  return special.test(value) ? value.replace(specials, escape) : value;
}
