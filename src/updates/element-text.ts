/** The text of an element, and the bytes it was decoded from when the transport had them as one piece. */
type ElementSource = string | { readonly text: string; readonly bytes: Uint8Array };

/**
 * Where an element's source is kept: a non-enumerable, non-writable own property under this symbol, which
 * `Object.keys`, a spread, `JSON.stringify`, `structuredClone` and deep-equality checks do not see, and which
 * goes away with the element. Not a `WeakMap`: one entry per element of a stream cost a read 1–3 µs per
 * element (the map's growth, and ephemerons in every garbage collection) against a property on an object
 * just made by `JSON.parse` (docs/benchmarks.md#per-element-cost-of-the-read-engine).
 */
const sourceKey = Symbol('ledger-rx element source');

/** The sources of elements that cannot take a property (frozen, sealed, non-extensible). */
const fallback = new WeakMap<object, ElementSource>();

type WithSource = { [sourceKey]?: ElementSource };

function sourceOf(element: object): ElementSource | undefined {
  return (element as WithSource)[sourceKey] ?? fallback.get(element);
}

/**
 * Remembers the exact JSON text an element was parsed from (held by the element: it goes away with it),
 * and the bytes of that text when the transport received them as one piece (a WebSocket frame), so that a
 * writer of bytes needs no encoding. Used by the client when a read asks for `rawText`. The element is not
 * changed in any way its keys, a spread, a clone or `JSON.stringify` would show.
 */
export function rememberElementText(element: object, text: string, bytes?: Uint8Array): void {
  const source: ElementSource = bytes === undefined ? text : { text, bytes };
  if (Object.isExtensible(element)) Object.defineProperty(element, sourceKey, { value: source, configurable: true });
  else fallback.set(element, source);
}

/**
 * The exact JSON text the server sent for `element`, when the read that produced it was made with
 * `rawText: true` and the element was small enough to buffer; otherwise `undefined`. Writing it out
 * (NDJSON, a `jsonb` column) reproduces the server's bytes and saves a `JSON.stringify`.
 */
export function elementText(element: object): string | undefined {
  const source = sourceOf(element);
  return typeof source === 'object' ? source.text : source;
}

/**
 * The exact bytes (UTF-8) of {@link elementText} as received, when the transport had them as one piece (a
 * WebSocket frame read with `rawText: true`); otherwise `undefined`. Do not modify them: they are the
 * transport's buffer.
 */
export function elementBytes(element: object): Uint8Array | undefined {
  const source = sourceOf(element);
  return typeof source === 'object' ? source.bytes : undefined;
}
