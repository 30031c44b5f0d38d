import type { RightRecord } from '../state/users-store.js';

/** A `Right` as the server answers it: `{"kind": {"<Kind>": {"value": {...}}}}`. */
export interface RightJson {
  readonly kind: Readonly<Record<string, { readonly value: { readonly party?: string } }>>;
}

/**
 * Renders a right in the wrapper-variant encoding (docs/server-behavior.md#json-encoding): `{"kind": {"CanActAs": {"value":
 * {"party": "…"}}}}` for the three per-party kinds, `{"kind": {"ParticipantAdmin": {"value": {}}}}` for the
 * others.
 */
export function toRightJson(right: RightRecord): RightJson {
  return { kind: { [right.kind]: { value: right.party === undefined ? {} : { party: right.party } } } };
}
