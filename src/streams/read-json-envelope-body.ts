import type { Readable } from 'node:stream';
import { bodyReadError } from './body-read-error.js';
import { chunkBytes } from './chunk-bytes.js';
import { JsonEnvelopeScanner, type JsonEnvelopeScannerOptions } from './json-envelope-scanner.js';

/** Options of {@link readJsonEnvelopeBody}. */
export interface JsonEnvelopeBodyOptions extends JsonEnvelopeScannerOptions {
  /** Called with the size of each chunk of the body as it is read (for metrics). */
  readonly onBytes?: (bytes: number) => void;
}

/** What {@link readJsonEnvelopeBody} read: the decoded elements of the array member, and the other members. */
export interface JsonEnvelope<T> {
  readonly elements: T[];
  readonly members: ReadonlyMap<string, unknown>;
}

/**
 * Reads a response body that is a JSON object with one array member (a page of a paged read) through a
 * {@link JsonEnvelopeScanner}: each element of the member `arrayKey` is decoded with `decode(value, index,
 * text)` as soon as its bytes have arrived, so the body is never held as one text; the other members are
 * parsed whole. Resolves when the body ended with the object closed.
 *
 * Rejects with what the scanner or `decode` throws (`ProtocolError`, `TransportError` `BODY_TRUNCATED`), or
 * when the body stream fails with `bodyReadError`'s mapping (`AbortError`, `BODY_TRUNCATED`,
 * `CONNECTION_RESET`). The body is destroyed on any failure.
 */
export async function readJsonEnvelopeBody<T>(
  body: Readable,
  arrayKey: string,
  decode: (value: unknown, index: number, text: string | undefined) => T,
  options: JsonEnvelopeBodyOptions = {},
): Promise<JsonEnvelope<T>> {
  const elements: T[] = [];
  const scanner = new JsonEnvelopeScanner(arrayKey, (value, index, text) => elements.push(decode(value, index, text)), options);
  try {
    for await (const chunk of body) {
      const bytes = chunkBytes(chunk);
      options.onBytes?.(bytes.length);
      scanner.write(bytes);
    }
  } catch (error) {
    body.destroy();
    throw bodyReadError(error, scanner);
  }
  scanner.end();
  return { elements, members: scanner.members };
}
