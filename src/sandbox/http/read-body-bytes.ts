import type { IncomingMessage } from 'node:http';
import { SandboxError } from '../errors/sandbox-error.js';

/**
 * Reads a request body as bytes. A body over `maxBytes` is refused with 413 text/plain, checked against
 * `Content-Length` first, then while reading (the rest of the body is drained).
 */
export async function readBodyBytes(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  const tooLarge = (size: number) =>
    SandboxError.text(413, `Request Content-Length of ${size} bytes exceeds the configured limit of ${maxBytes} bytes`);
  if (Number.isFinite(declared) && declared > maxBytes) {
    req.resume();
    throw tooLarge(declared);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > maxBytes) {
      req.resume();
      throw tooLarge(size);
    }
    chunks.push(buf);
  }
  return Buffer.concat(chunks, size);
}
