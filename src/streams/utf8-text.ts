import { isAscii, transcode, type Buffer } from 'node:buffer';

/** `buffer.transcode` needs Node's ICU (official builds have it). */
const canTranscode = typeof process.versions.icu === 'string';

/**
 * Up to this many bytes, non-ASCII text is decoded by `toString('utf8')`; above, transcoded (see
 * {@link utf8Text}; measured in docs/benchmarks.md#per-element-cost-of-the-read-engine).
 */
const decodeDirectlyUpTo = 4096;

/**
 * The text of `buf[from, end)` decoded as UTF-8: the same string as `buf.toString('utf8', from, end)`, made
 * faster for element texts. ASCII bytes (checked with simdutf) are copied as Latin-1. Other text up to
 * 4 KiB is decoded by `toString('utf8')` itself: its string is one-byte when every character is within
 * Latin-1 (e.g. "Zürich"), which `JSON.parse` reads faster, and it makes no second copy. Longer text is
 * transcoded to UTF-16 in one native pass (ICU), because V8's UTF-8 decoder slows down to a byte at a time
 * from the first non-ASCII byte on. Invalid UTF-8, which the transcoder refuses, and a Node without ICU fall
 * back to `toString` (its replacement characters are the reference).
 */
export function utf8Text(buf: Buffer, from: number, end: number): string {
  const bytes = buf.subarray(from, end);
  if (isAscii(bytes)) return buf.toString('latin1', from, end);
  if (canTranscode && end - from > decodeDirectlyUpTo) {
    try {
      return transcode(bytes, 'utf8', 'utf16le').toString('utf16le');
    } catch {
      // invalid UTF-8
    }
  }
  return buf.toString('utf8', from, end);
}
