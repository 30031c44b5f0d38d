import { Readable } from 'node:stream';
import type { JsonArrayBody } from './json-array-body.js';

/** True when `body` is a Node `Readable` (or quacks like one: `on`, `destroy` and `resume`). */
export function isNodeReadable(body: JsonArrayBody): body is Readable {
  if (body instanceof Readable) return true;
  const b = body as Partial<Record<'on' | 'destroy' | 'resume', unknown>>;
  return typeof b.on === 'function' && typeof b.destroy === 'function' && typeof b.resume === 'function';
}
