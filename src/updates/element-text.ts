/** The text of an element, and the bytes it was decoded from when the transport had them as one piece. */
type ElementSource = string | { readonly text: string; readonly bytes: Uint8Array };

const sources = new WeakMap<object, ElementSource>();

/**
 * Remembers the exact JSON text an element was parsed from (held weakly: it goes away with the element),
 * and the bytes of that text when the transport received them as one piece (a WebSocket frame), so that a
 * writer of bytes needs no encoding. Used by the client when a read asks for `rawText`.
 */
export function rememberElementText(element: object, text: string, bytes?: Uint8Array): void {
  sources.set(element, bytes === undefined ? text : { text, bytes });
}

/**
 * The exact JSON text the server sent for `element`, when the read that produced it was made with
 * `rawText: true` and the element was small enough to buffer; otherwise `undefined`. Writing it out
 * (NDJSON, a `jsonb` column) reproduces the server's bytes and saves a `JSON.stringify`.
 */
export function elementText(element: object): string | undefined {
  const source = sources.get(element);
  return typeof source === 'object' ? source.text : source;
}

/**
 * The exact bytes (UTF-8) of {@link elementText} as received, when the transport had them as one piece (a
 * WebSocket frame read with `rawText: true`); otherwise `undefined`. Do not modify them: they are the
 * transport's buffer.
 */
export function elementBytes(element: object): Uint8Array | undefined {
  const source = sources.get(element);
  return typeof source === 'object' ? source.bytes : undefined;
}
