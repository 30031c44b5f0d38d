import type { JsGetActiveContractsResponse } from '../../schemas/index.js';
import { isUnknownVariant } from '../../schemas/variant.js';
import { activeRow } from './active-row.js';
import { createdRow } from './created-row.js';
import type { ActiveContractRow, InterfaceViewRow } from './ingest-rows.js';
import { wireFields } from './wire-fields.js';

const { isObject, text, int } = wireFields;

/** What one entry of the active-contract snapshot contributes to `active_contracts`. */
export type SnapshotRow =
  | { readonly kind: 'active'; readonly row: ActiveContractRow; readonly views: readonly InterfaceViewRow[] }
  /** Unassigned at or before the snapshot's offset and not yet assigned: not active anywhere (its assignment comes as an update). */
  | { readonly kind: 'in-flight' }
  /** `JsEmpty`, or a kind this version does not know. */
  | { readonly kind: 'none' };

/**
 * Maps one entry of `/v2/state/active-contracts` (validated or not) to its `active_contracts` row (and its
 * computed interface views), as the
 * update path would have stored the same contract (see `mapUpdateRows`):
 *
 * - `JsActiveContract`: active on its `synchronizerId` with its `reassignmentCounter`, the row made from its
 *   `createdEvent` (whose `offset` is that of the create or of the latest assignment, possibly pruned);
 * - `JsIncompleteAssigned`: assigned to the target, whose unassignment is not visible: active on the
 *   assignment's `target`, as an assignment update makes it;
 * - `JsIncompleteUnassigned`: `in-flight` — left its source and not active on any synchronizer until the
 *   assignment, which the updates after the snapshot bring;
 * - `JsEmpty`, an unknown kind: `none`.
 *
 * Pure; fields are read defensively like the update rows.
 */
export function mapSnapshotRow(element: JsGetActiveContractsResponse): SnapshotRow {
  const entry: unknown = element.contractEntry;
  if (!isObject(entry) || isUnknownVariant(entry)) return { kind: 'none' };
  const active = entry['JsActiveContract'];
  if (isObject(active) && isObject(active['createdEvent'])) {
    const created = createdRow(active['createdEvent']);
    return { kind: 'active', row: activeRow(created, text(active['synchronizerId']), int(active['reassignmentCounter'])), views: created.interfaceViews };
  }
  const assigned = entry['JsIncompleteAssigned'];
  if (isObject(assigned) && isObject(assigned['assignedEvent']) && isObject(assigned['assignedEvent']['createdEvent'])) {
    const event = assigned['assignedEvent'];
    const created = createdRow(event['createdEvent'] as Record<string, unknown>);
    return { kind: 'active', row: activeRow(created, text(event['target']), int(event['reassignmentCounter'])), views: created.interfaceViews };
  }
  if ('JsIncompleteUnassigned' in entry) return { kind: 'in-flight' };
  return { kind: 'none' };
}
