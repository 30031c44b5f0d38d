const texts = new WeakMap<object, string>();

/**
 * Remembers the exact JSON text an element was parsed from (held weakly: it goes away with the element).
 * Used by the client when a read asks for `rawText`.
 */
export function rememberElementText(element: object, text: string): void {
  texts.set(element, text);
}

/**
 * The exact JSON text the server sent for `element`, when the read that produced it was made with
 * `rawText: true` and the element was small enough to buffer; otherwise `undefined`. Writing it out
 * (NDJSON, a `jsonb` column) reproduces the server's bytes and saves a `JSON.stringify`.
 */
export function elementText(element: object): string | undefined {
  return texts.get(element);
}
