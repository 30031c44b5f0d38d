import { fail, string, type Decoder } from './decoders.js';

/**
 * A protobuf `bytes` field as the JSON API reads it: a string in the standard Base64 alphabet, decoded as
 * Java's `Base64.getDecoder()` does (`=` padding optional, but correct when present; nothing else allowed).
 * Anything else fails with the server's message `The string is not a valid Base64: <string>`.
 */
export const base64Bytes: Decoder<Uint8Array> = (v, p) => {
  const s = string(v, p);
  const m = /^([A-Za-z0-9+/]*)(={0,2})$/.exec(s);
  const data = m?.[1] ?? '';
  const padding = (m?.[2] ?? '').length;
  if (!m || data.length % 4 === 1 || (padding > 0 && (data.length + padding) % 4 !== 0)) fail(p, `The string is not a valid Base64: ${s}`);
  return new Uint8Array(Buffer.from(data, 'base64'));
};
