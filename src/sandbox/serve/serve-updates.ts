import type { ServerResponse } from 'node:http';
import type { FaultQueue } from '../faults/fault-queue.js';
import type { Ledger } from '../ledger/ledger.js';
import type { UpdateRenderer } from '../render/create-update-renderer.js';
import type { StreamGuard } from '../auth/open-stream-guard.js';
import type { ElementSink, ReadPlan } from '../read/read-log.js';
import { readUpdates } from '../read/read-updates.js';
import { faultPiece } from '../faults/fault-piece.js';
import { listOverflowError } from './list-overflow-error.js';
import { writeUtf8Pieces } from '../render/write-utf8-pieces.js';
import type { UpdateFault } from '../faults/update-fault.js';

/** How to answer: the configured mode, and the node limit N. */
export interface ServeOptions {
  readonly mode: 'buffered' | 'streamed';
  readonly maxListElements: number;
}

const flushBytes = 256 * 1024;
const chunkBytes = 512 * 1024;


function cutAfter(res: ServerResponse, bytes: string | Buffer): void {
  res.write(bytes, () => res.destroy());
}

/** A fault applies unless it duplicates an element that does not exist. */
function applicable(fault: UpdateFault | undefined, elementsBefore: number): fault is UpdateFault {
  return fault !== undefined && (fault.kind !== 'duplicate-offset' || elementsBefore > 0);
}

/**
 * The JSON array of `elements` as UTF-8 bytes, encoded in one pass (rather than a joined string that is
 * measured and then encoded again when written): the buffered answer is on the tail's critical path. An
 * element with text cuts (`cuts`, same index) is encoded in pieces (`writeUtf8Pieces`).
 */
function encodeArray(elements: readonly string[], cuts: readonly (readonly number[] | undefined)[]): Buffer {
  let chars = 2;
  let longest = 0;
  for (const e of elements) {
    chars += e.length + 1;
    if (e.length > longest) longest = e.length;
  }
  // Mostly ASCII: the characters plus room for the largest element at 3 bytes per character is enough
  // without a regrow in practice.
  let body = Buffer.allocUnsafe(chars + longest * 3 + 16);
  let pos = 0;
  body[pos++] = 0x5b;
  for (let i = 0; i < elements.length; i++) {
    const e = elements[i] as string;
    if (body.length - pos < e.length * 3 + 2) {
      const grown = Buffer.allocUnsafe(Math.max(body.length * 2, pos + e.length * 3 + 2));
      body.copy(grown, 0, 0, pos);
      body = grown;
    }
    if (i > 0) body[pos++] = 0x2c;
    const c = cuts[i];
    pos += c === undefined ? body.write(e, pos, 'utf8') : writeUtf8Pieces(body, pos, e, c);
  }
  body[pos++] = 0x5d;
  return body.subarray(0, pos);
}

async function serveBuffered(res: ServerResponse, ledger: Ledger, faults: FaultQueue, renderer: UpdateRenderer, plan: ReadPlan, n: number, guard: StreamGuard): Promise<void> {
  const signal = guard.signal;
  const elements: string[] = [];
  const offsets: number[] = [];
  const cuts: (readonly number[] | undefined)[] = [];
  const sink: ElementSink = {
    element(json, offset) {
      elements.push(json);
      offsets.push(offset);
      cuts.push(renderer.textCuts(json)?.slice());
    },
    idle() {},
  };
  await readUpdates(ledger, renderer, plan, sink, signal, guard);
  if (guard.failure) throw guard.failure;
  if (signal.aborted || res.headersSent) return;
  if (elements.length > n) throw listOverflowError(elements.length, n);
  const fault = faults.peek('http');
  const at = fault ? Math.min(fault.afterElements, elements.length) : 0;
  if (!applicable(fault, at)) {
    const body = encodeArray(elements, cuts);
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
    res.end(body);
    return;
  }
  faults.consume(fault);
  const previous = at > 0 ? { json: elements[at - 1] as string, offset: offsets[at - 1] as number } : undefined;
  const { piece, cut } = faultPiece(fault.kind, renderer, previous, elements[at], plan.beginExclusive);
  const head = elements.slice(0, at);
  if (cut) {
    res.writeHead(200, { 'content-type': 'application/json' });
    cutAfter(res, `[${head.join(',')}${head.length > 0 ? ',' : ''}${piece}`);
    return;
  }
  const body = `[${[...head, piece, ...elements.slice(at)].join(',')}]`;
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/**
 * Writes elements as they come, UTF-8-encoding them straight into 512 KiB chunks that are handed to the
 * socket every 256 KiB (and whenever the read waits for news), waiting for `drain` when `res.write()`
 * says so.
 */
class StreamingSink implements ElementSink {
  private buf = Buffer.allocUnsafe(chunkBytes);
  private pos = 0;
  /** Array items written (elements and injected pieces), for the separators. */
  private items = 0;
  /** Real elements passed through, for the fault position. */
  private written = 0;
  private previousJson: string | undefined;
  private previousOffset = 0;
  private cut = false;
  private fault: UpdateFault | undefined;

  constructor(
    private readonly res: ServerResponse,
    private readonly signal: AbortSignal,
    private readonly renderer: UpdateRenderer,
    fault: UpdateFault | undefined,
    private readonly beginExclusive: number,
    private readonly onFault: () => void,
  ) {
    this.fault = fault;
    res.writeHead(200, { 'content-type': 'application/json' });
    this.append('[');
  }

  element(json: string, offset: number): void | Promise<void> {
    if (this.cut) return;
    if (this.fault && this.written === this.fault.afterElements && applicable(this.fault, this.written)) {
      this.injectFault(json);
      if (this.cut) return;
    }
    this.item(json, this.renderer.textCuts(json));
    this.previousJson = json;
    this.previousOffset = offset;
    this.written++;
    if (this.pos >= flushBytes) return this.flush();
  }

  idle(): void | Promise<void> {
    return this.flush();
  }

  /** Ends the array (injecting a fault that is still due) and the response. */
  finish(): void {
    if (this.fault && applicable(this.fault, this.written)) this.injectFault(undefined);
    if (this.cut) return;
    this.append(']');
    this.res.end(this.take());
  }

  private injectFault(next: string | undefined): void {
    const fault = this.fault as UpdateFault;
    this.fault = undefined;
    this.onFault();
    const previous = this.previousJson === undefined ? undefined : { json: this.previousJson, offset: this.previousOffset };
    const { piece, cut } = faultPiece(fault.kind, this.renderer, previous, next, this.beginExclusive);
    if (!cut) {
      this.item(piece);
      return;
    }
    this.cut = true;
    if (this.items > 0) this.append(',');
    this.append(piece);
    const bytes = this.take();
    if (this.res.destroyed) return;
    this.res.write(bytes, () => this.res.destroy());
  }

  private item(json: string, cuts?: readonly number[]): void {
    if (this.items++ > 0) this.append(',');
    this.append(json, cuts);
  }

  /** Appends `text` (encoded in the pieces `cuts` gives, if any: `writeUtf8Pieces`). */
  private append(text: string, cuts?: readonly number[]): void {
    // A UTF-16 unit takes at most 3 UTF-8 bytes, so this bound guarantees `write` never truncates.
    if (this.pos + text.length * 3 > this.buf.length) {
      if (this.pos > 0) this.res.write(this.take());
      if (text.length * 3 > this.buf.length) {
        this.res.write(text);
        return;
      }
    }
    this.pos += cuts === undefined ? this.buf.write(text, this.pos) : writeUtf8Pieces(this.buf, this.pos, text, cuts);
  }

  /** The bytes collected so far; the sink continues in a fresh buffer. */
  private take(): Buffer {
    const chunk = this.buf.subarray(0, this.pos);
    this.buf = Buffer.allocUnsafe(chunkBytes);
    this.pos = 0;
    return chunk;
  }

  private flush(): void | Promise<void> {
    if (this.pos === 0 || this.cut || this.res.destroyed) return;
    if (this.res.write(this.take())) return;
    return new Promise((resolve) => {
      const done = () => {
        this.res.off('drain', done);
        this.res.off('close', done);
        this.signal.removeEventListener('abort', done);
        resolve();
      };
      this.res.on('drain', done);
      this.res.on('close', done);
      this.signal.addEventListener('abort', done, { once: true });
    });
  }
}

/**
 * Answers `POST /v2/updates` after validation.
 *
 * - `buffered` (the real server's way): collects up to `cap` elements, then answers 413
 *   `JSON_API_MAXIMUM_LIST_ELEMENTS_NUMBER_REACHED` (JSON-layer body) if more than N were collected, else
 *   200 with the array and a `content-length`.
 * - `streamed`: when the request has a `limit`, the array is written as it is produced (chunked, flushed
 *   every 256 KiB and whenever the read waits for new updates), honouring `res.write()` backpressure and
 *   stopping when the client goes away; `limit` is honoured as given, even above N, and such an answer
 *   is never a 413 — this is what lets a benchmark read a gigabyte in one body. Without `limit` the N+1
 *   cap and the 413 apply exactly as in buffered mode, so the answer is buffered.
 *
 * The read runs under `guard`: its `beforeElement` check and its abort end the answer (an error answer
 * while nothing was sent, a cut connection once the streamed body has started).
 *
 * The fault at the head of `faults` ({@link UpdateFault}) is applied to the answer.
 */
export async function serveUpdates(
  res: ServerResponse,
  ledger: Ledger,
  faults: FaultQueue,
  renderer: UpdateRenderer,
  plan: ReadPlan,
  options: ServeOptions & { readonly limitGiven: boolean },
  guard: StreamGuard,
): Promise<void> {
  if (options.mode === 'buffered' || !options.limitGiven) {
    await serveBuffered(res, ledger, faults, renderer, plan, options.maxListElements, guard);
    return;
  }
  const signal = guard.signal;
  const fault = faults.peek('http');
  const sink = new StreamingSink(res, signal, renderer, fault, plan.beginExclusive, () => fault && faults.consume(fault));
  await readUpdates(ledger, renderer, plan, sink, signal, guard);
  if (signal.aborted || res.destroyed) {
    res.destroy();
    return;
  }
  sink.finish();
}
