import { Buffer } from 'node:buffer';
import { ErrorCodes, InvalidArgumentError, ProtocolError, TransportError } from '../errors/index.js';
import { IncrementalJsonVerifier } from './incremental-json-verifier.js';
import { malformedElementError } from './malformed-element-error.js';
import { StreamingElementParser } from './streaming-element-parser.js';
import { utf8Text } from './utf8-text.js';

/** Receives each element of the array, in order, with its 0-based index. */
/**
 * Receives each element: its parsed value, its index, and its exact JSON text — `undefined` when the element
 * was too large to buffer and was parsed while streaming.
 */
export type JsonArrayElementHandler = (value: unknown, index: number, text: string | undefined) => void;

/** Options of {@link JsonArrayScanner}. */
export interface JsonArrayScannerOptions {
  /**
   * Elements larger than this many bytes are never held as raw text: they are parsed incrementally as their
   * bytes arrive (stream-json's tokenizer and assembler). Default 16 MiB.
   */
  readonly maxBufferedElementBytes?: number;
  /**
   * The array is a member of a larger document (the `updates` of a page object): the scanner stops at the
   * closing `]` instead of checking that only whitespace follows, and `write` returns how many bytes of the
   * chunk belonged to the array. Default false.
   */
  readonly embedded?: boolean;
}

/** The default of {@link JsonArrayScannerOptions.maxBufferedElementBytes}: 16 MiB. */
export const DEFAULT_MAX_BUFFERED_ELEMENT_BYTES = 16 * 1024 * 1024;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const BOM = [0xef, 0xbb, 0xbf] as const;

/** Before the array: an optional BOM, whitespace, then `[`. */
const START = 0;
/** After `[`: an element or `]`. */
const FIRST_VALUE = 1;
/** After `,`: an element. */
const VALUE = 2;
/** Inside an object or array element, outside strings (`depth` ≥ 1). */
const NESTED = 3;
/** Inside a string, at any depth (a string element has depth 0). */
const STRING = 4;
/** Inside a number or literal element. */
const SCALAR = 5;
/** After an element: `,` or `]`. */
const AFTER_VALUE = 6;
/** After the closing `]`: only whitespace may follow. */
const DONE = 7;

/** 1 for the bytes that can continue a number or literal element. */
const SCALAR_BYTE = new Uint8Array(256);
for (const c of '0123456789+-.eEabcdefghijklmnopqrstuvwxyzABCDFGHIJKLMNOPQRSTUVWXYZ') SCALAR_BYTE[c.charCodeAt(0)] = 1;

function isWhitespace(c: number | undefined): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function describeByte(c: number | undefined): string {
  if (c === undefined) return 'the end of the body';
  return c >= 0x21 && c <= 0x7e ? `'${String.fromCharCode(c)}'` : `byte 0x${c.toString(16).padStart(2, '0')}`;
}

/**
 * `},` and `text` up to the `:` after its first key, when `text` is an object whose first key is plain (no
 * escape) and short; else null.
 */
function markOf(text: string): Buffer | null {
  if (text.charCodeAt(0) !== OPEN_BRACE || text.charCodeAt(1) !== QUOTE) return null;
  const close = text.indexOf('"', 2);
  if (close < 0 || close > 40 || text.charCodeAt(close + 1) !== 0x3a || text.lastIndexOf('\\', close) >= 0) return null;
  return Buffer.from(`},${text.slice(0, close + 2)}`, 'utf8');
}

/**
 * A byte-level scanner for the body of a JSON array (`[e0, e1, ...]`), fed chunk by chunk. It finds the
 * boundaries of the top-level elements (tracking only depth, strings and escapes), decodes each complete
 * element and calls `onElement(value, index, text)` synchronously, in order, as soon as the element's last byte has
 * been written. The array is never held in memory: an element that lies inside one chunk is decoded straight
 * from that chunk; one that spans chunks is kept as chunk slices (no copy) and concatenated once; one larger
 * than `maxBufferedElementBytes` is parsed incrementally instead (an internal `StreamingElementParser`).
 *
 * Chunk boundaries may fall anywhere, including inside multi-byte UTF-8 sequences, escapes, numbers and
 * literals. A leading UTF-8 byte-order mark and JSON whitespace anywhere between tokens are accepted.
 *
 * Errors are thrown by `write`/`end` (and nothing is delivered after them):
 * - structural garbage between elements (a missing comma, a trailing comma, bytes after the closing `]`) and
 *   syntax errors inside an element: `ProtocolError` `MALFORMED_JSON` with the absolute `bytePosition` in the
 *   body and the `elementIndex`; the cause inside an element is located precisely by stream-json's verifier;
 * - a body whose top level is a JSON value other than an array: `ProtocolError` `SCHEMA_MISMATCH`;
 * - `end()` before the array is closed (including an empty body): `TransportError` `BODY_TRUNCATED`.
 * An exception thrown by `onElement` propagates out of `write`, and the scanner then stops.
 *
 * The scanner keeps references to the chunks of an element that spans chunks until the element is complete:
 * callers must not modify a chunk after writing it. `close()` stops the scanner at once (even from inside
 * `onElement`): the rest of the current chunk is dropped and later calls do nothing.
 */
export class JsonArrayScanner {
  private readonly onElement: JsonArrayElementHandler;
  private readonly maxBufferedBytes: number;

  private state = START;
  /** Nesting depth inside the current element (0 for a string element). */
  private depth = 0;
  /** In a string that spans chunks: the previous chunk ended with an unpaired backslash. */
  private escaped = false;
  private bomMatched = 0;

  /** Absolute position of the first byte of the current chunk. */
  private base = 0;
  /** Number of elements delivered (and index of the element being read). */
  private count = 0;
  /** Absolute position of the first byte of the element being read. */
  private elementStart = 0;
  /** Start of the element being read within the current chunk (0 if it began in an earlier chunk). */
  private startInChunk = 0;
  /** Slices of earlier chunks holding the beginning of the element being read. */
  private readonly pieces: Buffer[] = [];
  private pieceBytes = 0;
  /** Set while the current element is parsed incrementally because it is too large to buffer. */
  private streaming: StreamingElementParser | undefined;

  private stopped = false;
  private readonly embedded: boolean;
  /**
   * `},` and the bytes of the first element up to the `:` after its first key (`},{"update":`), once that
   * element has been read; `null` when it was not an object with a plain first key. See `readMarked`.
   */
  private mark: Buffer | null | undefined;
  /** Elements for which the mark did not lead to their end (see `readMarked`). */
  private misses = 0;

  constructor(onElement: JsonArrayElementHandler, options: JsonArrayScannerOptions = {}) {
    const max = options.maxBufferedElementBytes ?? DEFAULT_MAX_BUFFERED_ELEMENT_BYTES;
    if (!Number.isSafeInteger(max) || max < 1) {
      throw new InvalidArgumentError('maxBufferedElementBytes', 'must be a positive integer');
    }
    this.onElement = onElement;
    this.maxBufferedBytes = max;
    this.embedded = options.embedded === true;
  }

  /** Number of elements delivered so far. */
  get elementCount(): number {
    return this.count;
  }

  /** Number of body bytes written so far. */
  get bytesWritten(): number {
    return this.base;
  }

  /** True once the closing `]` of the array has been seen. */
  get arrayClosed(): boolean {
    return this.state === DONE;
  }

  /**
   * Scans the next chunk of the body, delivering every element it completes. Returns the number of bytes of
   * the chunk that were read: all of them, except for an `embedded` array, which stops after its `]`.
   */
  write(chunk: Uint8Array): number {
    if (this.stopped) return 0;
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let read: number;
    try {
      read = this.scan(buf);
    } catch (error) {
      this.stop();
      throw error;
    }
    this.base += read;
    return read;
  }

  /** Declares the end of the body; throws `BODY_TRUNCATED` unless the array was closed. */
  end(): void {
    if (this.stopped) return;
    const state = this.state;
    this.stop();
    if (state === DONE) return;
    throw new TransportError(
      ErrorCodes.BODY_TRUNCATED,
      this.base === 0
        ? 'the response body is empty: expected a JSON array'
        : `the response body ended after ${this.base} bytes, before the JSON array was closed (${this.count} complete elements)`,
    );
  }

  /** Stops the scanner: no further element is delivered and buffered slices are released. */
  close(): void {
    this.stop();
  }

  private stop(): void {
    this.stopped = true;
    this.pieces.length = 0;
    this.pieceBytes = 0;
    this.streaming = undefined;
  }

  /** Scans `buf`; returns the number of bytes read (less than its length only when an embedded array closed). */
  private scan(buf: Buffer): number {
    const len = buf.length;
    let i = 0;
    while (i < len) {
      if (this.state === DONE && this.embedded) return i;
      switch (this.state) {
        case NESTED: {
          const end = this.scanNested(buf, i, len);
          if (end < 0) {
            i = len;
            break;
          }
          this.finishElement(buf, end);
          if (this.stopped) return len;
          i = end;
          break;
        }
        case STRING: {
          let from = i;
          if (this.escaped) {
            this.escaped = false;
            from++; // the escaped character
          }
          const end = from >= len ? -1 : this.skipString(buf, from, len);
          if (end < 0) {
            i = len;
            break;
          }
          if (this.depth === 0) {
            this.finishElement(buf, end);
            if (this.stopped) return len;
          } else {
            this.state = NESTED;
          }
          i = end;
          break;
        }
        case AFTER_VALUE: {
          const c = buf[i];
          if (c === COMMA) this.state = VALUE;
          else if (c === CLOSE_BRACKET) this.state = DONE;
          else if (!isWhitespace(c)) throw this.malformed(i, `expected ',' or ']' after an element, found ${describeByte(c)}`);
          i++;
          break;
        }
        case VALUE:
        case FIRST_VALUE: {
          const c = buf[i];
          if (isWhitespace(c)) {
            i++;
          } else if (c === CLOSE_BRACKET) {
            if (this.state === VALUE) throw this.malformed(i, "expected an element after ',', found ']'");
            this.state = DONE;
            i++;
          } else if (this.mark) {
            i = this.readMarked(buf, i, this.mark);
            if (this.stopped) return len;
          } else {
            i = this.startElement(buf, i);
          }
          break;
        }
        case SCALAR: {
          while (i < len && SCALAR_BYTE[buf[i] as number] === 1) i++;
          if (i >= len) break;
          this.finishElement(buf, i);
          if (this.stopped) return len;
          break;
        }
        case START: {
          const c = buf[i];
          if (this.bomMatched < BOM.length && this.base + i === this.bomMatched && c === BOM[this.bomMatched]) {
            this.bomMatched++;
          } else if (this.bomMatched > 0 && this.bomMatched < BOM.length) {
            throw this.malformed(i, 'incomplete UTF-8 byte-order mark');
          } else if (c === OPEN_BRACKET) {
            this.state = FIRST_VALUE;
          } else if (!isWhitespace(c)) {
            throw this.notAnArray(i, c);
          }
          i++;
          break;
        }
        default: {
          // DONE
          const c = buf[i];
          if (!isWhitespace(c)) throw this.malformed(i, `unexpected ${describeByte(c)} after the end of the array`);
          i++;
          break;
        }
      }
    }
    const state = this.state;
    if (state === NESTED || state === STRING || state === SCALAR) this.hold(buf, len);
    return len;
  }

  /** Begins an element at `i` (not whitespace, not `]`); returns the position after its first byte. */
  private startElement(buf: Buffer, i: number): number {
    const c = buf[i];
    this.elementStart = this.base + i;
    this.startInChunk = i;
    if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      this.depth = 1;
      this.state = NESTED;
    } else if (c === QUOTE) {
      this.depth = 0;
      this.state = STRING;
    } else if (c === 0x2d || (c !== undefined && c >= 0x30 && c <= 0x39) || c === 0x74 || c === 0x66 || c === 0x6e) {
      // a number, true, false or null
      this.state = SCALAR;
    } else {
      throw this.malformed(i, `expected an element, found ${describeByte(c)}`);
    }
    return i + 1;
  }

  /**
   * The hot loop: scans an object or array element from `i` (outside strings) to its closing bracket.
   * Returns the position after the closing bracket, or -1 when the chunk ends first (state is saved).
   */
  private scanNested(buf: Buffer, i: number, len: number): number {
    let depth = this.depth;
    while (i < len) {
      const c = buf[i++];
      if (c === QUOTE) {
        const end = this.skipString(buf, i, len);
        if (end < 0) {
          this.depth = depth;
          return -1;
        }
        i = end;
      } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
        depth++;
      } else if ((c === CLOSE_BRACE || c === CLOSE_BRACKET) && --depth === 0) {
        this.depth = 0;
        return i;
      }
    }
    this.depth = depth;
    return -1;
  }

  /**
   * Skips string content from `from` (just after the opening quote, or after an escaped character at the start
   * of a chunk) to the closing quote. Returns the position after it, or -1 if the chunk ends first, noting
   * whether the chunk ended with an unpaired backslash.
   */
  private skipString(buf: Buffer, from: number, len: number): number {
    let p = from;
    for (;;) {
      const q = buf.indexOf(QUOTE, p);
      if (q < 0) {
        let k = len - 1;
        while (k >= p && buf[k] === BACKSLASH) k--;
        this.escaped = ((len - 1 - k) & 1) === 1;
        this.state = STRING;
        return -1;
      }
      if (q === p || buf[q - 1] !== BACKSLASH) return q + 1;
      let k = q - 2;
      while (k >= p && buf[k] === BACKSLASH) k--;
      if (((q - 1 - k) & 1) === 0) return q + 1;
      p = q + 1;
    }
  }

  /**
   * The fast path for an element at `i` of a chunk that also holds the start of the next one: elements of an
   * array usually begin with the same key, so the next `mark` (`},{"update":`, its `}` rarer than `,` for
   * `indexOf`) most likely ends this element. Its text up to that `}` is parsed at once, without scanning its
   * bytes, and when `JSON.parse` accepts it, this element ends there: it starts at `i` and JSON's grammar ends
   * an object at its matching brace, so a text that parses as one value holds exactly the element (a mark
   * inside the element cuts it short, and the prefix does not parse). Delivers the element and returns the
   * position of the next one. Otherwise (no mark in the chunk, too large, a text that does not parse) it
   * scans the element byte by byte as usual from `i`, which also reports any syntax error. When marks keep
   * missing (they occur inside elements), the fast path is given up.
   */
  private readMarked(buf: Buffer, i: number, mark: Buffer): number {
    const close = buf.indexOf(mark, i + 1);
    const next = close + 1; // the comma
    if (close > i && next - i <= this.maxBufferedBytes) {
      const text = utf8Text(buf, i, next);
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        if (++this.misses > 16 + (this.count >> 6)) this.mark = null;
        return this.startElement(buf, i);
      }
      const index = this.count;
      this.elementStart = this.base + i;
      this.count = index + 1;
      this.state = VALUE;
      this.onElement(value, index, text);
      return next + 1;
    }
    return this.startElement(buf, i);
  }

  /** The chunk ended inside an element: keeps (or streams) the element's bytes from this chunk. */
  private hold(buf: Buffer, len: number): void {
    const from = this.startInChunk;
    this.startInChunk = 0;
    if (from >= len) return;
    const part = buf.subarray(from, len);
    if (this.streaming !== undefined) {
      this.streaming.write(part);
    } else if (this.pieceBytes + part.length > this.maxBufferedBytes) {
      this.streamHeldPieces().write(part);
    } else {
      this.pieces.push(part);
      this.pieceBytes += part.length;
    }
  }

  /** Switches the current element to incremental parsing, feeding it the pieces held so far. */
  private streamHeldPieces(): StreamingElementParser {
    const parser = new StreamingElementParser(this.count, this.elementStart);
    for (const piece of this.pieces) parser.write(piece);
    this.pieces.length = 0;
    this.pieceBytes = 0;
    this.streaming = parser;
    return parser;
  }

  /** The element being read ends just before `end` in `buf`: decodes and delivers it. */
  private finishElement(buf: Buffer, end: number): void {
    const from = this.startInChunk;
    const index = this.count;
    let value: unknown;
    let text: string | undefined;
    if (this.streaming === undefined && this.pieceBytes + (end - from) <= this.maxBufferedBytes) {
      if (this.pieces.length === 0) {
        text = utf8Text(buf, from, end);
      } else {
        this.pieces.push(buf.subarray(from, end));
        const joined = Buffer.concat(this.pieces, this.pieceBytes + (end - from));
        text = utf8Text(joined, 0, joined.length);
        this.pieces.length = 0;
        this.pieceBytes = 0;
      }
      try {
        value = JSON.parse(text);
      } catch (cause) {
        throw this.malformedElement(text, cause);
      }
    } else {
      const parser = this.streaming ?? this.streamHeldPieces();
      parser.write(buf.subarray(from, end));
      value = parser.end();
      this.streaming = undefined;
    }
    this.count = index + 1;
    this.state = AFTER_VALUE;
    if (this.mark === undefined) this.mark = text === undefined ? null : markOf(text);
    this.onElement(value, index, text);
  }

  /** Locates a syntax error in an element that `JSON.parse` rejected, with stream-json's verifier. */
  private malformedElement(text: string, cause: unknown): ProtocolError {
    const issue = IncrementalJsonVerifier.verify(text);
    if (issue === undefined) {
      const detail = cause instanceof Error ? cause.message : String(cause);
      return malformedElementError(this.count, this.elementStart, detail, cause);
    }
    const position = this.elementStart + Buffer.byteLength(text.slice(0, issue.charOffset), 'utf8');
    return malformedElementError(this.count, position, issue.message, cause);
  }

  private malformed(i: number, detail: string): ProtocolError {
    return malformedElementError(this.count, this.base + i, detail);
  }

  private notAnArray(i: number, c: number | undefined): ProtocolError {
    const isValueStart = c === OPEN_BRACE || c === QUOTE || c === 0x2d || (c !== undefined && c >= 0x30 && c <= 0x39)
      || c === 0x74 || c === 0x66 || c === 0x6e;
    if (!isValueStart) {
      return malformedElementError(0, this.base + i, `expected a JSON array, found ${describeByte(c)}`);
    }
    return new ProtocolError(
      ErrorCodes.SCHEMA_MISMATCH,
      `expected a JSON array as the response body, found ${c === OPEN_BRACE ? 'an object' : 'a scalar'} at byte ${this.base + i}`,
      { bytePosition: this.base + i },
    );
  }
}
