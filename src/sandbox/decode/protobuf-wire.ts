/** A protobuf field value the page tokens use: a varint (non-negative integer) or length-delimited bytes. */
export type ProtoValue = number | Uint8Array;

function varint(n: number): number[] {
  const out: number[] = [];
  let v = n;
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
  return out;
}

/**
 * The protobuf wire helpers of the sandbox's page tokens (which are serialized protobuf messages on the
 * server): `encode` writes fields in order — a number as a varint (wire type 0, non-negative integers up
 * to 2^53), bytes as length-delimited (wire type 2) —; `parse` reads every field back, keeping the last
 * value of a repeated number and skipping fixed-width fields as a protobuf parser does, or answers
 * `undefined` for bytes that are not a well-formed message (truncated, field number 0, groups).
 */
export const protobufWire = {
  encode(fields: readonly (readonly [number, ProtoValue])[]): Buffer {
    const parts: number[] = [];
    for (const [field, value] of fields) {
      if (typeof value === 'number') parts.push(...varint(field * 8), ...varint(value));
      else parts.push(...varint(field * 8 + 2), ...varint(value.length), ...value);
    }
    return Buffer.from(parts);
  },
  parse(bytes: Uint8Array): Map<number, ProtoValue> | undefined {
    const out = new Map<number, ProtoValue>();
    let pos = 0;
    const readVarint = (): number => {
      let result = 0;
      for (let shift = 0; shift <= 63; shift += 7) {
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
        if (wire === 0) out.set(field, readVarint());
        else if (wire === 1) pos += 8;
        else if (wire === 5) pos += 4;
        else if (wire === 2) {
          const length = readVarint();
          const end = pos + length;
          if (end > bytes.length) return undefined;
          out.set(field, bytes.subarray(pos, end));
          pos = end;
        } else return undefined;
        if (pos > bytes.length) return undefined;
      }
    } catch {
      return undefined;
    }
    return out;
  },
} as const;
