import type { JsGetUpdatesResponse } from '../../schemas/updates.js';

/**
 * Where a command writes update elements, one after the other, with backpressure and durability: the
 * contract of `NdjsonWriter`, which any other output format of the elements keeps.
 *
 * - `write` returns `false` when the output's buffer is full: wait for `drained()` before writing more;
 * - `flush()` resolves once everything written so far reached the operating system and was synced (call it
 *   before saving a checkpoint that covers it);
 * - a failure of the output is kept in `error`: `write` then throws it, `drained` and `flush` reject with it.
 */
export interface UpdateWriter {
  /** Elements written. */
  readonly count: number;
  /** Bytes written (UTF-8). */
  readonly bytes: number;
  /** The output's error, if it failed. */
  readonly error: Error | undefined;
  write(element: JsGetUpdatesResponse): boolean;
  drained(): Promise<void>;
  flush(): Promise<void>;
}
