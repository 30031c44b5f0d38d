import { Buffer } from 'node:buffer';

/**
 * The bytes of one body chunk: a `Uint8Array` (or `Buffer`) as is, a string encoded as UTF-8. Throws a
 * `TypeError` for anything else (an object-mode stream is not a body).
 */
export function chunkBytes(chunk: unknown): Uint8Array {
  if (chunk instanceof Uint8Array) return chunk;
  if (typeof chunk === 'string') return Buffer.from(chunk, 'utf8');
  throw new TypeError(`a response body chunk must be bytes or a string, got ${chunk === null ? 'null' : typeof chunk}`);
}
