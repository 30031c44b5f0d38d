import { elementValidation } from '../schemas/element-validation.js';
import { JsGetActiveContractsResponse } from '../schemas/index.js';
import { contractEntryCases } from '../schemas/active-contracts.js';
import { decodeVariantElement, type VariantElementKind } from '../updates/decode-variant-element.js';

const kind: VariantElementKind<JsGetActiveContractsResponse> = {
  validation: elementValidation<JsGetActiveContractsResponse>(JsGetActiveContractsResponse),
  component: 'JsGetActiveContractsResponse',
  member: 'contractEntry',
  cases: contractEntryCases,
  describe: (value) => {
    const id = rawContractId(value);
    return id === undefined ? undefined : `contract ${id}`;
  },
};

/** The contract id of a raw entry, best effort (it also serves for entries that failed validation). */
function rawContractId(value: unknown): string | undefined {
  const entry = (value as { contractEntry?: Record<string, unknown> } | null)?.contractEntry;
  if (typeof entry !== 'object' || entry === null) return undefined;
  for (const key in entry) {
    const payload = entry[key] as { createdEvent?: { contractId?: unknown }; assignedEvent?: { createdEvent?: { contractId?: unknown } } } | null;
    const id = payload?.createdEvent?.contractId ?? payload?.assignedEvent?.createdEvent?.contractId;
    return typeof id === 'string' ? id : undefined;
  }
  return undefined;
}

/**
 * Turns one parsed entry of an active-contracts snapshot (a WebSocket frame, an element of the list or of a
 * page) into a `JsGetActiveContractsResponse`. With `validate: true` the zod schema decides; with `false` (the
 * documented opt-out) only the shape is checked (`contractEntry` an object with one key). Either way an
 * unknown entry kind becomes `{ unknownVariant, payload }`. Throws `ProtocolError` `SCHEMA_MISMATCH` naming
 * the element index and the contract id when it can be read.
 */
export function decodeActiveContractsElement(value: unknown, index: number, options: { readonly validate: boolean }): JsGetActiveContractsResponse {
  return decodeVariantElement(value, index, options, kind);
}
