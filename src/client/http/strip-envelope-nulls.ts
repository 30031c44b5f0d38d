/** Keys whose values are Daml payloads: opaque JSON in which `null` means `None` and must be kept. */
const damlPayloadKeys = new Set(['createArguments', 'createArgument', 'choiceArgument', 'contractKey', 'exerciseResult', 'viewValue']);

/**
 * A copy of a request body without `null`-valued properties, except inside Daml payloads. Our request
 * types accept `null` for "absent", but the server decodes `null` as a type error for fields that are not
 * of `Option` type (docs/server-behavior.md#json-encoding), so absent must be sent as a missing key. Arrays keep their
 * `null` entries; Daml payloads (`createArguments`, `choiceArgument`, `contractKey`, ...) are left as they are.
 */
export function stripEnvelopeNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripEnvelopeNulls);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (damlPayloadKeys.has(key)) out[key] = v;
    else if (v !== null) out[key] = stripEnvelopeNulls(v);
  }
  return out;
}
