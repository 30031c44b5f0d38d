/** What {@link readBoundedText} read. */
export interface BoundedText {
  /** The body decoded as UTF-8, cut at `maxBytes`. */
  readonly text: string;
  /** True when the body was longer than `maxBytes` (the rest was not read and the body was destroyed). */
  readonly truncated: boolean;
}

/** A response body as undici returns it: an async iterable of bytes that can be destroyed. */
export interface ReadableBody extends AsyncIterable<Uint8Array | string> {
  destroy(error?: Error): unknown;
}

/**
 * Reads a response body to text, keeping at most `maxBytes` bytes: bodies of error responses and unary
 * answers must not be able to exhaust memory. When the limit is hit, reading stops and the body is
 * destroyed (which releases the connection).
 *
 * @returns the text and whether it was cut.
 * @throws whatever the body stream throws while reading (the caller maps it).
 */
export async function readBoundedText(body: ReadableBody, maxBytes: number): Promise<BoundedText> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    if (size + bytes.length > maxBytes) {
      chunks.push(bytes.subarray(0, maxBytes - size));
      body.destroy();
      return { text: Buffer.concat(chunks).toString('utf8'), truncated: true };
    }
    chunks.push(bytes);
    size += bytes.length;
  }
  return { text: Buffer.concat(chunks).toString('utf8'), truncated: false };
}
