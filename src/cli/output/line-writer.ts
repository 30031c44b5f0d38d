import type { Writable } from 'node:stream';

/**
 * Writes lines of text to a stream with backpressure and durability, keeping the stream's first error:
 * the mechanics every line-oriented output of the CLI shares (`NdjsonWriter`, the human view).
 *
 * Backpressure: `writeLine` returns the stream's `write()` result; when it is `false`, wait for `drained()`
 * before writing more. `flush()` resolves once everything written so far has been handed to the operating
 * system (each write's callback ran) and then `sync` (an fsync) completed — call it before saving a
 * checkpoint that covers those lines. A stream error is kept: `drained` and `flush` then reject with it,
 * and `writeLine` throws it.
 */
export class LineWriter {
  private readonly stream: Writable;
  private readonly syncOutput: () => Promise<void>;
  private pending = 0;
  private waiters: { resolve: () => void; reject: (e: unknown) => void }[] = [];
  private failure: Error | undefined;
  private lines = 0;
  private written = 0;

  constructor(stream: Writable, sync: () => Promise<void> = async () => undefined) {
    this.stream = stream;
    this.syncOutput = sync;
    stream.on('error', (error: Error) => this.fail(error));
  }

  /** Writes (calls of `writeLine`) so far. */
  get count(): number {
    return this.lines;
  }

  /** Bytes written (UTF-8, newlines included). */
  get bytes(): number {
    return this.written;
  }

  /** The stream's error, if it failed. */
  get error(): Error | undefined {
    return this.failure;
  }

  /** Writes text that ends with `\n` (one or more lines); `false` means: wait for {@link drained}. */
  writeLine(line: string): boolean {
    if (this.failure) throw this.failure;
    this.lines++;
    this.written += Buffer.byteLength(line);
    this.pending++;
    return this.stream.write(line, (error) => {
      this.pending--;
      if (error) this.fail(error);
      else if (this.pending === 0) this.release();
    });
  }

  /** Resolves when the stream's buffer has drained (at once if it is not full). */
  drained(): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    if (!this.stream.writableNeedDrain) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const onDrain = () => {
        this.stream.off('error', onError);
        resolve();
      };
      const onError = (error: unknown) => {
        this.stream.off('drain', onDrain);
        reject(error);
      };
      this.stream.once('drain', onDrain);
      this.stream.once('error', onError);
    });
  }

  /** Resolves when every line written so far reached the OS and the output was synced. */
  async flush(): Promise<void> {
    if (this.failure) throw this.failure;
    if (this.pending > 0) await new Promise<void>((resolve, reject) => this.waiters.push({ resolve, reject }));
    await this.syncOutput();
  }

  private release(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w.resolve();
  }

  private fail(error: Error): void {
    this.failure ??= error;
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w.reject(error);
  }
}
