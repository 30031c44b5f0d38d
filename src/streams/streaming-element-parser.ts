import { Buffer } from 'node:buffer';
import { StringDecoder } from 'node:string_decoder';
import { Assembler } from 'stream-json/core/assembler.js';
import { jsonParser, type Token } from 'stream-json/core/parser.js';
import { IncrementalJsonVerifier, type JsonSyntaxIssue } from './incremental-json-verifier.js';
import { malformedElementError } from './malformed-element-error.js';

/** stream-chain's `none`, the value that flushes a stage (registered with `Symbol.for`). */
const FLUSH = Symbol.for('object-stream.none');
/** Largest piece of text handed to the parser at once, in bytes. */
const SLICE_BYTES = 64 * 1024;
/** Characters of already-fed text kept to turn a verifier position into a byte position. */
const TAIL_CHARS = 64;

type TokenStage = (chunk: string | symbol) => { readonly values: readonly Token[] } | symbol;

/**
 * Parses one array element incrementally from its raw bytes, for elements too large to buffer as text:
 * stream-json's tokenizer and assembler build the value as bytes arrive, while its verifier checks the same
 * text so that a syntax error is reported with its exact byte position. Memory is bounded by the value being
 * built plus at most 64 KiB of text; the raw bytes are never held.
 *
 * `write` throws a `ProtocolError` (`MALFORMED_JSON`) as soon as the text cannot be valid JSON; `end` returns
 * the assembled value, or throws if the element is incomplete or malformed.
 */
export class StreamingElementParser {
  private readonly decoder = new StringDecoder('utf8');
  private readonly verifier = new IncrementalJsonVerifier();
  private readonly parser = jsonParser({ packValues: true, streamValues: false }) as unknown as TokenStage;
  private readonly assembler = new Assembler();
  /** Characters and bytes of text fed so far. */
  private chars = 0;
  private bytes = 0;
  /** The last characters fed before the current text, and where they start. */
  private tail = '';
  private tailChars = 0;
  private tailBytes = 0;

  /**
   * @param elementIndex index of the element in the array, for error reports
   * @param startByte absolute position of the element's first byte in the body
   */
  constructor(
    private readonly elementIndex: number,
    private readonly startByte: number,
  ) {}

  /** Feeds the next bytes of the element (any split, even inside a UTF-8 sequence). */
  write(bytes: Uint8Array): void {
    for (let from = 0; from < bytes.length; from += SLICE_BYTES) {
      const text = this.decoder.write(bytes.subarray(from, Math.min(bytes.length, from + SLICE_BYTES)));
      if (text.length > 0) this.feed(text);
    }
  }

  /** Ends the element and returns its value. */
  end(): unknown {
    const rest = this.decoder.end();
    if (rest.length > 0) this.feed(rest);
    const issue = this.verifier.end();
    if (issue !== undefined) throw this.syntaxError(issue, '');
    this.consume(this.parser(FLUSH));
    if (!this.assembler.done) {
      throw malformedElementError(this.elementIndex, this.startByte + this.bytes, 'the element is incomplete');
    }
    return this.assembler.current;
  }

  private feed(text: string): void {
    const issue = this.verifier.write(text);
    if (issue !== undefined) throw this.syntaxError(issue, text);
    let tokens;
    try {
      tokens = this.parser(text);
    } catch (cause) {
      throw malformedElementError(this.elementIndex, this.startByte + this.bytes, describe(cause), cause);
    }
    this.consume(tokens);
    this.advance(text);
  }

  private consume(tokens: { readonly values: readonly Token[] } | symbol): void {
    if (typeof tokens === 'symbol') return;
    const assembler = this.assembler;
    for (const token of tokens.values) assembler.consume(token);
  }

  /** Moves the window of recent text past `text`, which has just been fed. */
  private advance(text: string): void {
    const textBytes = Buffer.byteLength(text, 'utf8');
    this.chars += text.length;
    this.bytes += textBytes;
    let tail = text.length >= TAIL_CHARS ? text.slice(-TAIL_CHARS) : (this.tail + text).slice(-TAIL_CHARS);
    const first = tail.charCodeAt(0);
    if (first >= 0xdc00 && first <= 0xdfff) tail = tail.slice(1); // never start inside a surrogate pair
    this.tail = tail;
    this.tailChars = this.chars - tail.length;
    this.tailBytes = this.bytes - Buffer.byteLength(tail, 'utf8');
  }

  /** Turns a verifier issue (character offset in the whole element) into an error with a byte position. */
  private syntaxError(issue: JsonSyntaxIssue, current: string) {
    const offset = issue.charOffset;
    let byte: number;
    if (offset >= this.chars) {
      byte = this.bytes + Buffer.byteLength(current.slice(0, offset - this.chars), 'utf8');
    } else if (offset >= this.tailChars) {
      byte = this.tailBytes + Buffer.byteLength((this.tail + current).slice(0, offset - this.tailChars), 'utf8');
    } else {
      byte = this.tailBytes; // not reached: the verifier keeps fewer unconsumed characters than the tail holds
    }
    return malformedElementError(this.elementIndex, this.startByte + byte, issue.message);
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
