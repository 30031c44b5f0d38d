import type { ServerResponse } from 'node:http';
import type { StreamGuard } from '../auth/open-stream-guard.js';
import type { ElementSink } from '../read/read-log.js';
import { listOverflowError } from './list-overflow-error.js';

/**
 * Answers a list endpoint of the JSON API (the active contracts and completions lists; `asList` of
 * Endpoints.scala:155-223 at e5f40da5e): `read` fills the list (it stops at the request's cap and idle
 * timer), then more than `n` elements is the 413, else 200 with the JSON array. The read runs under
 * `guard`, whose failure (an expired token, changed rights) is the answer instead.
 */
export async function serveList(res: ServerResponse, n: number, guard: StreamGuard, read: (sink: ElementSink) => Promise<unknown>): Promise<void> {
  const elements: string[] = [];
  await read({ element: (json) => void elements.push(json), idle() {} });
  if (guard.failure) throw guard.failure;
  if (guard.signal.aborted || res.headersSent) return;
  if (elements.length > n) throw listOverflowError(elements.length, n);
  const body = `[${elements.join(',')}]`;
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}
