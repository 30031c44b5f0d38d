import { Buffer, isAscii, transcode } from 'node:buffer';

/** `buffer.transcode` needs Node's ICU (official builds have it). */
const canTranscode = typeof process.versions.icu === 'string';

/**
 * Up to this many bytes, non-ASCII text is decoded by `toString('utf8')`; above, transcoded (see
 * {@link utf8Text}; measured in docs/benchmarks.md#per-element-cost-of-the-read-engine).
 */
const decodeDirectlyUpTo = 4096;

/**
 * The Latin-1 path ({@link latin1Text}) is given up after this many characters beyond ASCII, plus one per
 * 256 bytes of text: each costs a few native calls, and a text dense in accented letters is decoded as fast
 * by the general path.
 */
const latin1CharsUpTo = 16;

/**
 * The text of `buf[from, end)` decoded as UTF-8: the same string as `buf.toString('utf8', from, end)`, made
 * faster for element texts. ASCII bytes (checked with simdutf) are copied as Latin-1. Text whose only
 * characters beyond ASCII are within Latin-1 (U+0080–U+00FF, e.g. "Zürich"), the common case of element
 * texts, is assembled as a one-byte string from its ASCII runs and those characters (`latin1Text`), which
 * `JSON.parse` reads faster than a two-byte one, in half the memory. Other text up to 4 KiB is decoded by `toString('utf8')`
 * itself (its string is one-byte when it can be). Longer text is transcoded to UTF-16 in one native pass
 * (ICU), because V8's UTF-8 decoder slows down to a byte at a time from the first non-ASCII byte on. Invalid
 * UTF-8, which the transcoder refuses, and a Node without ICU fall back to `toString` (its replacement
 * characters are the reference). Measured in docs/benchmarks.md#per-element-cost-of-the-read-engine.
 */
export function utf8Text(buf: Buffer, from: number, end: number): string {
  const bytes = buf.subarray(from, end);
  if (isAscii(bytes)) return buf.toString('latin1', from, end);
  const latin1 = latin1Text(bytes);
  if (latin1 !== undefined) return latin1;
  if (canTranscode && end - from > decodeDirectlyUpTo) {
    try {
      return transcode(bytes, 'utf8', 'utf16le').toString('utf16le');
    } catch {
      // invalid UTF-8
    }
  }
  return buf.toString('utf8', from, end);
}

/** Where `latin1Text` assembles a text of up to 64 KiB (made on first use; longer text gets its own buffer). */
let scratch: Buffer | undefined;
const scratchBytes = 64 * 1024;

/**
 * `bytes` decoded, when they are valid UTF-8 whose characters beyond ASCII are all within Latin-1 and
 * few (see `latin1CharsUpTo`); otherwise `undefined`. Such a character is two bytes, a lead `0xC2` or `0xC3`
 * and a continuation byte `0x80`–`0xBF` (always a valid, shortest encoding); the lead bytes are found with
 * `indexOf` (memchr, within `bytes` only: never past the element into the rest of a transport's chunk), and the
 * runs between them must be ASCII (simdutf): that proves the whole text valid and Latin-1 without reading it
 * byte by byte in JavaScript. The runs and the characters are copied into a reused buffer as Latin-1 bytes,
 * which becomes the string in one copy (a flat one-byte string: nothing for `JSON.parse` to flatten, nothing
 * else allocated).
 */
function latin1Text(bytes: Buffer): string | undefined {
  const end = bytes.length;
  const limit = latin1CharsUpTo + (end >> 8);
  let out = (scratch ??= Buffer.allocUnsafeSlow(scratchBytes));
  if (end > out.length) out = Buffer.allocUnsafe(end);
  let written = 0;
  let at = 0;
  let chars = 0;
  let c2 = bytes.indexOf(0xc2);
  let c3 = bytes.indexOf(0xc3);
  for (;;) {
    const lead = c2 < 0 ? c3 : c3 < 0 ? c2 : Math.min(c2, c3);
    if (lead < 0) break;
    const next = bytes[lead + 1];
    if (++chars > limit || next === undefined || next < 0x80 || next > 0xbf) return undefined;
    if (!isAscii(bytes.subarray(at, lead))) return undefined;
    written += bytes.copy(out, written, at, lead);
    out[written++] = (lead === c2 ? 0x80 : 0xc0) | (next & 0x3f);
    at = lead + 2;
    if (lead === c2) c2 = bytes.indexOf(0xc2, at);
    else c3 = bytes.indexOf(0xc3, at);
  }
  if (chars === 0 || !isAscii(bytes.subarray(at, end))) return undefined;
  written += bytes.copy(out, written, at, end);
  return out.toString('latin1', 0, written);
}
