import type { Writable } from 'node:stream';
import type { JsGetUpdatesResponse } from '../../schemas/updates.js';
import { wireJson } from '../../updates/wire-json.js';
import { LineWriter } from './line-writer.js';
import type { UpdateWriter } from './update-writer.js';

/**
 * Writes update elements as NDJSON: one compact JSON document per line, the element as the server sent it
 * (see `wireJson`), in the order given, with the backpressure, `flush` and error keeping of
 * {@link LineWriter}. `count` is the number of elements written.
 */
export class NdjsonWriter extends LineWriter implements UpdateWriter {
  constructor(stream: Writable, sync: () => Promise<void> = async () => undefined) {
    super(stream, sync);
  }

  /** Writes `element` as one line, as the server sent it (see `wireJson`); `false` means: wait for {@link drained}. */
  write(element: JsGetUpdatesResponse): boolean {
    return this.writeLine(`${wireJson(element)}\n`);
  }
}
