import type { JsGetActiveContractsResponse } from '../schemas/index.js';

/**
 * The kind of an active-contracts entry: `active` (`JsActiveContract`: active on its synchronizer at the
 * snapshot's offset), `incomplete-assigned` (`JsIncompleteAssigned`: assigned to its target, the
 * unassignment not visible), `incomplete-unassigned` (`JsIncompleteUnassigned`: left its source, not yet
 * assigned), `empty` (`JsEmpty`), or `unknown` (a kind this version does not know).
 */
export type ContractEntryKind = 'active' | 'incomplete-assigned' | 'incomplete-unassigned' | 'empty' | 'unknown';

/** The {@link ContractEntryKind} of an entry. Never throws. */
export function contractEntryKind(element: JsGetActiveContractsResponse): ContractEntryKind {
  const entry: unknown = (element as { contractEntry?: unknown } | null | undefined)?.contractEntry;
  if (typeof entry !== 'object' || entry === null) return 'unknown';
  if ('JsActiveContract' in entry) return 'active';
  if ('JsIncompleteUnassigned' in entry) return 'incomplete-unassigned';
  if ('JsIncompleteAssigned' in entry) return 'incomplete-assigned';
  if ('JsEmpty' in entry) return 'empty';
  return 'unknown';
}
