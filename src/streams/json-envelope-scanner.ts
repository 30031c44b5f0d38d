import { Buffer } from 'node:buffer';
import { ErrorCodes, ProtocolError, TransportError } from '../errors/index.js';
import { JsonArrayScanner, type JsonArrayElementHandler, type JsonArrayScannerOptions } from './json-array-scanner.js';
import { malformedElementError } from './malformed-element-error.js';

/** Options of {@link JsonEnvelopeScanner}. */
export interface JsonEnvelopeScannerOptions extends Pick<JsonArrayScannerOptions, 'maxBufferedElementBytes'> {
  /** Largest member other than the array, in bytes (they are buffered whole). Default 1 MiB. */
  readonly maxMemberBytes?: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;
const BOM = [0xef, 0xbb, 0xbf] as const;

/** Before the object: an optional BOM, whitespace, then `{`. */
const START = 0;
/** After `{`: a key or `}`. */
const FIRST_KEY = 1;
/** After `,`: a key. */
const KEY = 2;
/** Inside a key string. */
const IN_KEY = 3;
/** After a key: `:`. */
const COLON_NEXT = 4;
/** After `:`: a value. */
const VALUE = 5;
/** Inside the array member, read by the element scanner. */
const ARRAY = 6;
/** Inside any other member's value. */
const MEMBER = 7;
/** After a value: `,` or `}`. */
const AFTER_VALUE = 8;
/** After the closing `}`: only whitespace may follow. */
const DONE = 9;

function isWhitespace(c: number | undefined): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function describeByte(c: number | undefined): string {
  return c !== undefined && c >= 0x21 && c <= 0x7e ? `'${String.fromCharCode(c)}'` : `byte 0x${(c ?? 0).toString(16).padStart(2, '0')}`;
}

/**
 * A byte-level scanner for a JSON object whose one array member holds the elements, fed chunk by chunk —
 * the answer of a paged read (`{"updates": [...], "nextPageToken": "...", ...}`). The elements of the array
 * member named `arrayKey` are found and decoded by a {@link JsonArrayScanner} as their bytes arrive and handed
 * to `onElement(value, index, text)` at once, so the array is never held in memory; every other member is
 * small, buffered, and parsed when it ends ({@link members}). Members may come in any order; an array member
 * that is `null` or absent means no elements.
 *
 * Errors are thrown by `write`/`end`: `ProtocolError` `MALFORMED_JSON` (with the byte position) for broken
 * JSON or a repeated member, `SCHEMA_MISMATCH` when the body is not an object or the array member is
 * neither an array nor `null`, `UNEXPECTED_RESPONSE` for a member over `maxMemberBytes`, `TransportError`
 * `BODY_TRUNCATED` from `end()` before the object is closed; and whatever `onElement` throws.
 */
export class JsonEnvelopeScanner {
  private readonly members_ = new Map<string, unknown>();
  private readonly maxMemberBytes: number;
  private readonly elements: JsonArrayScanner;
  private state = START;
  private base = 0;
  private bomMatched = 0;
  private key: Buffer[] = [];
  private keyName = '';
  private value: Buffer[] = [];
  private valueBytes = 0;
  private valueStart = 0;
  private depth = 0;
  private inString = false;
  private escaped = false;
  private arraySeen = false;

  constructor(
    private readonly arrayKey: string,
    onElement: JsonArrayElementHandler,
    options: JsonEnvelopeScannerOptions = {},
  ) {
    this.maxMemberBytes = options.maxMemberBytes ?? 1024 * 1024;
    this.elements = new JsonArrayScanner(onElement, {
      embedded: true,
      ...(options.maxBufferedElementBytes === undefined ? {} : { maxBufferedElementBytes: options.maxBufferedElementBytes }),
    });
  }

  /** The members other than the array, parsed, by name (complete once the object is closed). */
  get members(): ReadonlyMap<string, unknown> {
    return this.members_;
  }

  /** Number of elements delivered so far. */
  get elementCount(): number {
    return this.elements.elementCount;
  }

  /** Number of body bytes written so far. */
  get bytesWritten(): number {
    return this.base;
  }

  /** True once the closing `}` has been seen. */
  get closed(): boolean {
    return this.state === DONE;
  }

  /** Scans the next chunk of the body. */
  write(chunk: Uint8Array): void {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const len = buf.length;
    let i = 0;
    while (i < len) {
      const c = buf[i] as number;
      switch (this.state) {
        case ARRAY: {
          const read = this.elements.write(buf.subarray(i));
          if (read === 0) return; // the element scanner was closed (from an element handler): stop here
          i += read;
          if (this.elements.arrayClosed) this.state = AFTER_VALUE;
          continue;
        }
        case MEMBER: {
          i = this.scanMember(buf, i, len);
          continue;
        }
        case IN_KEY: {
          const end = this.keyEnd(buf, i, len);
          this.key.push(buf.subarray(i, end < 0 ? len : end - 1));
          if (end < 0) {
            i = len;
          } else {
            this.keyName = this.parseText(Buffer.concat(this.key), i, 'a member name', true) as string;
            this.key = [];
            this.state = COLON_NEXT;
            i = end;
          }
          continue;
        }
        case START: {
          if (this.bomMatched < BOM.length && this.base + i === this.bomMatched && c === BOM[this.bomMatched]) this.bomMatched++;
          else if (c === OPEN_BRACE) this.state = FIRST_KEY;
          else if (!isWhitespace(c)) throw this.notAnObject(i, c);
          break;
        }
        case FIRST_KEY:
        case KEY: {
          if (c === QUOTE) {
            this.state = IN_KEY;
            this.escaped = false;
          } else if (c === CLOSE_BRACE && this.state === FIRST_KEY) {
            this.state = DONE;
          } else if (!isWhitespace(c)) {
            throw this.malformed(i, `expected a member name, found ${describeByte(c)}`);
          }
          break;
        }
        case COLON_NEXT: {
          if (c === COLON) this.state = VALUE;
          else if (!isWhitespace(c)) throw this.malformed(i, `expected ':' after a member name, found ${describeByte(c)}`);
          break;
        }
        case VALUE: {
          if (isWhitespace(c)) break;
          if (this.keyName === this.arrayKey ? this.arraySeen : this.members_.has(this.keyName)) {
            throw this.malformed(i, `the member "${this.keyName}" appears twice`);
          }
          if (this.keyName === this.arrayKey && c === OPEN_BRACKET) {
            this.arraySeen = true;
            this.state = ARRAY;
            continue;
          }
          this.value = [];
          this.valueBytes = 0;
          this.valueStart = this.base + i;
          this.depth = 0;
          this.inString = false;
          this.escaped = false;
          this.state = MEMBER;
          continue;
        }
        case AFTER_VALUE: {
          if (c === COMMA) this.state = KEY;
          else if (c === CLOSE_BRACE) this.state = DONE;
          else if (!isWhitespace(c)) throw this.malformed(i, `expected ',' or '}' after a member, found ${describeByte(c)}`);
          break;
        }
        default: {
          if (!isWhitespace(c)) throw this.malformed(i, `unexpected ${describeByte(c)} after the end of the object`);
        }
      }
      i++;
    }
    this.base += len;
  }

  /** Declares the end of the body; throws `BODY_TRUNCATED` unless the object was closed. */
  end(): void {
    if (this.state === DONE) return;
    this.elements.close();
    throw new TransportError(
      ErrorCodes.BODY_TRUNCATED,
      this.base === 0
        ? 'the response body is empty: expected a JSON object'
        : `the response body ended after ${this.base} bytes, before the JSON object was closed (${this.elements.elementCount} complete elements)`,
    );
  }

  /** Stops the element scanner: no further element is delivered. */
  close(): void {
    this.elements.close();
  }

  /**
   * Reads a member's value from `i`: a string, a number or literal, or a nested object or array, tracking
   * strings and depth. Returns where scanning stopped; at the value's end the member is stored.
   */
  private scanMember(buf: Buffer, i: number, len: number): number {
    const from = i;
    let end = -1;
    while (i < len) {
      const c = buf[i] as number;
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === BACKSLASH) this.escaped = true;
        else if (c === QUOTE) {
          this.inString = false;
          if (this.depth === 0) {
            end = i + 1;
            break;
          }
        }
      } else if (c === QUOTE) {
        this.inString = true;
      } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
        this.depth++;
      } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
        if (this.depth === 0) {
          end = i; // a scalar ended by the object's `}`
          break;
        }
        if (--this.depth === 0) {
          end = i + 1;
          break;
        }
      } else if (this.depth === 0 && (c === COMMA || isWhitespace(c))) {
        end = i;
        break;
      }
      i++;
    }
    const stop = end < 0 ? len : end;
    this.valueBytes += stop - from;
    if (this.valueBytes > this.maxMemberBytes) {
      throw new ProtocolError(
        ErrorCodes.UNEXPECTED_RESPONSE,
        `the member "${this.keyName}" of the response body is larger than ${this.maxMemberBytes} bytes`,
        { bytePosition: this.valueStart },
      );
    }
    this.value.push(buf.subarray(from, stop));
    if (end < 0) return len;
    const value = this.parseText(Buffer.concat(this.value, this.valueBytes), this.valueStart - this.base, `the member "${this.keyName}"`, false);
    this.value = [];
    if (this.keyName === this.arrayKey) {
      if (value !== null) {
        throw new ProtocolError(ErrorCodes.SCHEMA_MISMATCH, `the member "${this.arrayKey}" of the response body is not an array`, {
          bytePosition: this.valueStart,
        });
      }
      this.arraySeen = true;
    } else {
      this.members_.set(this.keyName, value);
    }
    this.state = AFTER_VALUE;
    return end;
  }

  /** The position after the closing quote of a key that continues at `i`, or -1 if the chunk ends first. */
  private keyEnd(buf: Buffer, i: number, len: number): number {
    for (; i < len; i++) {
      const c = buf[i];
      if (this.escaped) this.escaped = false;
      else if (c === BACKSLASH) this.escaped = true;
      else if (c === QUOTE) return i + 1;
    }
    return -1;
  }

  private parseText(bytes: Buffer, at: number, what: string, quoted: boolean): unknown {
    const text = bytes.toString('utf8');
    try {
      return JSON.parse(quoted ? `"${text}"` : text);
    } catch (cause) {
      throw malformedElementError(this.elements.elementCount, this.base + at, `${what} is not valid JSON`, cause);
    }
  }

  private malformed(i: number, detail: string): ProtocolError {
    return malformedElementError(this.elements.elementCount, this.base + i, detail);
  }

  private notAnObject(i: number, c: number): ProtocolError {
    if (c === OPEN_BRACKET || c === QUOTE || c === 0x2d || (c >= 0x30 && c <= 0x39) || c === 0x74 || c === 0x66 || c === 0x6e) {
      return new ProtocolError(ErrorCodes.SCHEMA_MISMATCH, `expected a JSON object as the response body, found ${c === OPEN_BRACKET ? 'an array' : 'a scalar'} at byte ${this.base + i}`, {
        bytePosition: this.base + i,
      });
    }
    return malformedElementError(0, this.base + i, `expected a JSON object, found ${describeByte(c)}`);
  }
}
