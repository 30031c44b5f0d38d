import type { IncomingMessage } from 'node:http';
import { SandboxError } from '../errors/sandbox-error.js';

/**
 * Reads and parses a JSON request body. A body over `maxBytes` is refused with 413 text/plain (checked
 * against `Content-Length` first, then while reading); an empty or malformed body is the 400 text/plain
 * decode failure.
 */
export async function readJsonBody(req: IncomingMessage, maxBytes: number): Promise<unknown> {
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
  const text = Buffer.concat(chunks, size).toString('utf8');
  if (text.trim() === '') throw SandboxError.decodeFailure('expected json value got EOF (line 1, column 1)');
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw SandboxError.decodeFailure(e instanceof Error ? e.message : 'malformed JSON');
  }
}
