import type { IncomingMessage } from 'node:http';
import { SandboxError } from '../errors/sandbox-error.js';
import { readBodyBytes } from './read-body-bytes.js';

/**
 * Reads and parses a JSON request body. A body over `maxBytes` is refused with 413 text/plain (checked
 * against `Content-Length` first, then while reading); an empty or malformed body is the 400 text/plain
 * decode failure.
 */
export async function readJsonBody(req: IncomingMessage, maxBytes: number): Promise<unknown> {
  const text = (await readBodyBytes(req, maxBytes)).toString('utf8');
  if (text.trim() === '') throw SandboxError.decodeFailure('expected json value got EOF (line 1, column 1)');
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw SandboxError.decodeFailure(e instanceof Error ? e.message : 'malformed JSON');
  }
}
