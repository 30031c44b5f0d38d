import { contractEntryKind } from '../../active-contracts/contract-entry-kind.js';
import type { JsGetActiveContractsResponse } from '../../schemas/index.js';

/** The created event an entry shows (its own, or the assignment's), loosely read. */
function createdOf(entry: JsGetActiveContractsResponse): { contractId?: string; templateId?: string; offset?: number; signatories?: string[] } | undefined {
  const payload = Object.values(entry.contractEntry as Record<string, unknown>)[0] as
    | { createdEvent?: Record<string, unknown>; assignedEvent?: { createdEvent?: Record<string, unknown> } }
    | undefined;
  return (payload?.createdEvent ?? payload?.assignedEvent?.createdEvent) as ReturnType<typeof createdOf>;
}

/**
 * One line of `ledger-rx acs --format pretty` for a snapshot entry: the offset of the contract's activation,
 * the kind (`active`, `unassigned` or `assigned` for an incomplete reassignment), the contract id, the
 * template and the signatories; cut to `width` columns when given. Pure.
 */
export function prettyContractEntry(entry: JsGetActiveContractsResponse, width: number | undefined): string {
  const kind = contractEntryKind(entry);
  const created = createdOf(entry);
  const label = kind === 'incomplete-unassigned' ? 'unassigned' : kind === 'incomplete-assigned' ? 'assigned' : kind;
  const cells = [
    String(created?.offset ?? '').padStart(8),
    label.padEnd(10),
    created?.contractId ?? '?',
    created?.templateId ?? '',
    (created?.signatories ?? []).join(','),
  ];
  const line = cells.join('  ');
  return width !== undefined && line.length > width ? `${line.slice(0, Math.max(1, width - 1))}…` : line;
}
