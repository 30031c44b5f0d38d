import { protobufWire } from '../decode/protobuf-wire.js';

/** Java's `Base64.getUrlDecoder`: URL-safe alphabet, optional `=` padding, no other characters. */
function decodeBase64Url(token: string): Buffer | undefined {
  const m = /^([A-Za-z0-9_-]*)(={0,2})$/.exec(token);
  if (!m) return undefined;
  const data = m[1] as string;
  const padding = (m[2] as string).length;
  if (data.length % 4 === 1) return undefined;
  if (padding > 0 && (data.length + padding) % 4 !== 0) return undefined;
  return Buffer.from(data, 'base64url');
}

/** String fields 1..`count` of a protobuf message (`""` when absent); `undefined` when not a message or a string is not UTF-8. */
function parseStringFields(bytes: Buffer, count: number): string[] | undefined {
  const fields = protobufWire.parse(bytes);
  if (!fields) return undefined;
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  const out: string[] = [];
  try {
    for (let f = 1; f <= count; f++) {
      const v = fields.get(f);
      out.push(v === undefined ? '' : typeof v === 'number' ? '' : utf8.decode(v));
    }
  } catch {
    return undefined;
  }
  return out;
}

/**
 * The page-token format of the participant's list services: URL-safe Base64 (with `=` padding, Java's
 * `Base64.getUrlEncoder`) of a small protobuf message whose fields 1, 2, … are strings — the vetting list
 * stores (synchronizer id, participant id), the user list the last user id. Tokens are opaque to clients.
 *
 * - `encode(fields)`: the token for these field values;
 * - `decode(token, count)`: the first `count` string fields (`""` when absent), or which step failed:
 *   `base64` (not URL-safe Base64) or `proto` (not a parsable message, or a string that is not UTF-8).
 */
export const pageTokenCodec = {
  encode(fields: readonly string[]): string {
    const bytes = protobufWire.encode(fields.map((value, i) => [i + 1, Buffer.from(value, 'utf8')] as const));
    return bytes.toString('base64').replace(/\+/g, '-').replace(/\//g, '_');
  },
  decode(token: string, count: number): { readonly fields: string[] } | { readonly failure: 'base64' | 'proto' } {
    const bytes = decodeBase64Url(token);
    if (!bytes) return { failure: 'base64' };
    const fields = parseStringFields(bytes, count);
    return fields ? { fields } : { failure: 'proto' };
  },
} as const;
