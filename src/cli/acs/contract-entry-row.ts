import { contractEntryKind } from '../../active-contracts/contract-entry-kind.js';
import type { JsGetActiveContractsResponse } from '../../schemas/index.js';
import { elide } from '../pretty/elide.js';
import { contractSpans } from '../pretty/event-spans.js';
import type { PrettyRow } from '../pretty/pretty-row.js';

/** The created event an entry shows (its own, or the assignment's), loosely read. */
function createdOf(entry: JsGetActiveContractsResponse): Readonly<Record<string, unknown>> | undefined {
  const payload = Object.values(entry.contractEntry as Record<string, unknown>)[0] as
    | { createdEvent?: Record<string, unknown>; assignedEvent?: { createdEvent?: Record<string, unknown> } }
    | undefined;
  return payload?.createdEvent ?? payload?.assignedEvent?.createdEvent;
}

/**
 * The row of a snapshot entry in the human view of `ledger-rx acs`, in `tail`'s compact style: the offset of
 * the contract's creation, the kind (`active`, or `unassigned` / `assigned` for an incomplete reassignment),
 * the contract id shortened (`#000000…94fb`), then the template, the signatories and the create argument
 * (`contractSpans`: `ledger-rx-demo:Iou:Iou Alice::1220…c42d {issuer: …}`, `Iou:Iou` when narrow). Pure.
 */
export function contractEntryRow(entry: JsGetActiveContractsResponse): PrettyRow {
  const kind = contractEntryKind(entry);
  const created = createdOf(entry);
  const label = kind === 'incomplete-unassigned' ? 'unassigned' : kind === 'incomplete-assigned' ? 'assigned' : kind;
  const offset = created?.['offset'];
  const contractId = typeof created?.['contractId'] === 'string' ? created['contractId'] : '?';
  return {
    cells: [
      { text: typeof offset === 'number' ? String(offset) : '?', style: 'offset', align: 'right', minWidth: 6 },
      { text: label, style: label === 'active' ? 'created' : 'archived', minWidth: 6 },
      { text: `#${elide(contractId, 6, 4)}`, style: 'id' },
    ],
    spans: created === undefined ? [{ text: 'no created event', style: 'muted' }] : contractSpans(created),
  };
}
