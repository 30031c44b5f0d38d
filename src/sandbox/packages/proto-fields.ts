/** One field of a protobuf message: a varint (wire type 0) or length-delimited bytes (wire type 2). */
export interface ProtoField {
  readonly field: number;
  readonly value: number | Uint8Array;
}

/**
 * Splits a protobuf message into its fields, in wire order, keeping every occurrence of a repeated field
 * (docs/sandbox.md#dar-uploads). Fixed-width fields (wire types 1 and 5) are skipped. Answers `undefined`
 * for bytes that are not a well-formed message: truncated, field number 0, groups or unknown wire types.
 * Never throws.
 */
export function protoFields(bytes: Uint8Array): ProtoField[] | undefined {
  const out: ProtoField[] = [];
  let pos = 0;
  const varint = (): number | undefined => {
    let result = 0;
    for (let shift = 0; shift <= 63; shift += 7) {
      if (pos >= bytes.length) return undefined;
      const b = bytes[pos++] as number;
      result += (b & 0x7f) * 2 ** shift;
      if ((b & 0x80) === 0) return result;
    }
    return undefined;
  };
  while (pos < bytes.length) {
    const key = varint();
    if (key === undefined) return undefined;
    const field = Math.floor(key / 8);
    const wire = key % 8;
    if (field === 0) return undefined;
    if (wire === 0) {
      const v = varint();
      if (v === undefined) return undefined;
      out.push({ field, value: v });
    } else if (wire === 1 || wire === 5) {
      pos += wire === 1 ? 8 : 4;
      if (pos > bytes.length) return undefined;
    } else if (wire === 2) {
      const length = varint();
      if (length === undefined || pos + length > bytes.length) return undefined;
      out.push({ field, value: bytes.subarray(pos, pos + length) });
      pos += length;
    } else return undefined;
  }
  return out;
}

/** The varints of a repeated integer field, packed (one bytes value) or not (several varints); `undefined` if malformed. */
export function repeatedInts(fields: readonly ProtoField[], field: number): number[] | undefined {
  const out: number[] = [];
  for (const f of fields) {
    if (f.field !== field) continue;
    if (typeof f.value === 'number') {
      out.push(f.value);
      continue;
    }
    let pos = 0;
    const bytes = f.value;
    while (pos < bytes.length) {
      let result = 0;
      let done = false;
      for (let shift = 0; shift <= 63 && pos < bytes.length; shift += 7) {
        const b = bytes[pos++] as number;
        result += (b & 0x7f) * 2 ** shift;
        if ((b & 0x80) === 0) {
          done = true;
          break;
        }
      }
      if (!done) return undefined;
      out.push(result);
    }
  }
  return out;
}
