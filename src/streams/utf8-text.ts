import { isAscii, transcode, type Buffer } from 'node:buffer';

/** `buffer.transcode` needs Node's ICU (official builds have it). */
const canTranscode = typeof process.versions.icu === 'string';

/**
 * The text of `buf[from, end)` decoded as UTF-8: the same string as `buf.toString('utf8', from, end)`, made
 * faster for element texts. ASCII bytes (checked with simdutf) are copied as Latin-1; other text is
 * transcoded to UTF-16 in one native pass (V8's UTF-8 decoder slows down to a byte at a time from the first
 * non-ASCII byte on). Invalid UTF-8, which the transcoder refuses, and a Node without ICU fall back to
 * `toString` (its replacement characters are the reference).
 */
export function utf8Text(buf: Buffer, from: number, end: number): string {
  const bytes = buf.subarray(from, end);
  if (isAscii(bytes)) return buf.toString('latin1', from, end);
  if (canTranscode) {
    try {
      return transcode(bytes, 'utf8', 'utf16le').toString('utf16le');
    } catch {
      // invalid UTF-8
    }
  }
  return buf.toString('utf8', from, end);
}
