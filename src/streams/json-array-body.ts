import type { Readable } from 'node:stream';

/**
 * The body of an HTTP response holding a JSON array: a Node `Readable` of bytes (undici's `response.body`,
 * `Readable.from(chunks)`, a socket...) or any async iterable of byte chunks (a Web `ReadableStream`, an
 * async generator). String chunks (a `Readable` with an encoding set) are accepted and encoded as UTF-8.
 */
export type JsonArrayBody = Readable | AsyncIterable<Uint8Array>;
