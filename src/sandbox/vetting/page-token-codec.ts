function varint(n: number): number[] {
  const out: number[] = [];
  let v = n;
  while (v >= 0x80) {
    out.push((v & 0x7f) | 0x80);
    v >>>= 7;
  }
  out.push(v);
  return out;
}

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

/** Parses string fields 1..`count` of a protobuf message; unknown fields are skipped, as protobuf parsers do. */
function parseStringFields(bytes: Buffer, count: number): string[] | undefined {
  const out: string[] = Array.from({ length: count }, () => '');
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  let pos = 0;
  const readVarint = (): number => {
    let result = 0;
    for (let shift = 0; shift <= 49; shift += 7) {
      if (pos >= bytes.length) throw new RangeError('truncated varint');
      const b = bytes[pos++] as number;
      result += (b & 0x7f) * 2 ** shift;
      if ((b & 0x80) === 0) return result;
    }
    throw new RangeError('varint too long');
  };
  try {
    while (pos < bytes.length) {
      const key = readVarint();
      const field = Math.floor(key / 8);
      const wire = key % 8;
      if (field === 0) return undefined;
      if (wire === 0) readVarint();
      else if (wire === 1) pos += 8;
      else if (wire === 5) pos += 4;
      else if (wire === 2) {
        const length = readVarint();
        const end = pos + length;
        if (end > bytes.length) return undefined;
        if (field <= count) out[field - 1] = utf8.decode(bytes.subarray(pos, end));
        pos = end;
      } else return undefined;
      if (pos > bytes.length) return undefined;
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
    const parts = fields.map((value, i) => {
      const bytes = Buffer.from(value, 'utf8');
      return Buffer.concat([Buffer.from([((i + 1) << 3) | 2, ...varint(bytes.length)]), bytes]);
    });
    return Buffer.concat(parts).toString('base64').replace(/\+/g, '-').replace(/\//g, '_');
  },
  decode(token: string, count: number): { readonly fields: string[] } | { readonly failure: 'base64' | 'proto' } {
    const bytes = decodeBase64Url(token);
    if (!bytes) return { failure: 'base64' };
    const fields = parseStringFields(bytes, count);
    return fields ? { fields } : { failure: 'proto' };
  },
} as const;
