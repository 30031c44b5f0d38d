const maxBytes = 256 * 1024;

/**
 * The UTF-8 length of `text` as the server's Java `getBytes(UTF_8)` counts it: 1–4 bytes per character, and
 * an unpaired surrogate (which a JSON `\ud800` escape can produce) becomes one `?` byte.
 */
function javaUtf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else if (c >= 0xd800 && c <= 0xdfff) bytes += 1;
    else bytes += 3;
  }
  return bytes;
}

/**
 * True when an annotations map fits the server's limit for one resource (`isWithinMaxAnnotationsByteSize`):
 * at most 256 KiB (262 144 bytes), counting the UTF-8 bytes (as Java counts them) of every key and every
 * value of the map as given. (A request's map is filtered to its non-empty values first:
 * `validateAnnotations`.)
 */
export function annotationsWithinLimit(annotations: Readonly<Record<string, string>>): boolean {
  let size = 0;
  for (const [k, v] of Object.entries(annotations)) size += javaUtf8Length(k) + javaUtf8Length(v);
  return size <= maxBytes;
}
