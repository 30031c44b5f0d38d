/**
 * Writes `text` as UTF-8 into `buf` at `at`, piece by piece between the char offsets `cuts` (ascending,
 * each between two characters: an element's `TextCuts`, render/json-pieces.ts); returns the bytes written. The bytes are
 * those of `buf.write(text, at)`; the caller guarantees the room (3 bytes per UTF-16 unit). Cheaper when
 * the user's text holds non-ASCII characters: the ASCII pieces around it are copied as they are instead of
 * being encoded character by character with it (docs/benchmarks.md#sandbox-serving-cost).
 */
export function writeUtf8Pieces(buf: Buffer, at: number, text: string, cuts: readonly number[]): number {
  let n = 0;
  let from = 0;
  for (const cut of cuts) {
    if (cut <= from) continue;
    n += buf.write(text.slice(from, cut), at + n);
    from = cut;
  }
  return from < text.length ? n + buf.write(text.slice(from), at + n) : n;
}
