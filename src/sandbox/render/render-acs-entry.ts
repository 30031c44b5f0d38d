import type { CompiledEventFormat } from '../format/compile-event-format.js';
import { matchEvent } from '../format/match-event.js';
import type { Ledger } from '../ledger/ledger.js';
import type { AcsEntry } from '../ledger/active-contracts-at.js';
import { jsonPieces } from './json-pieces.js';

const { arrayJson, hostedOnly, syncIdJson, createdEventJson } = jsonPieces;

/**
 * One `JsGetActiveContractsResponse` of an active contract set, or `undefined` when no stakeholder
 * hosted here passes `format` (ACS-delta visibility): `workflowId` of the update behind the entry,
 * `contractEntry` — `JsActiveContract` (the `CreatedEvent` as of its last activation: that update's offset
 * and node id, the creation's `createdAt`; the synchronizer and reassignment counter) or
 * `JsIncompleteUnassigned` (the last activation's `CreatedEvent` and the `UnassignedEvent`) — and
 * `streamContinuationToken` (`""` in pages; from 3.5 on, docs/participant-versions.md).
 */
export function renderAcsEntry(ledger: Ledger, entry: AcsEntry, format: CompiledEventFormat, continuationToken: string): string | undefined {
  const c = entry.contract;
  const m = matchEvent(format, hostedOnly(ledger, c.stakeholders), c.template);
  if (!m) return undefined;
  const createdAt = ledger.creatingTransaction(c).recordTimeMs;
  const created = createdEventJson(ledger, c, entry.activation.offset, entry.activation.nodeId, createdAt, m, true);
  let contractEntry: string;
  let workflowId: string;
  if (entry.kind === 'active') {
    workflowId = entry.activation.submission.workflowId;
    contractEntry = `{"JsActiveContract":{"createdEvent":${created},"synchronizerId":${syncIdJson(ledger, entry.synchronizer)},"reassignmentCounter":${entry.reassignmentCounter}}}`;
  } else {
    const e = entry.unassign;
    workflowId = entry.unassignedAt.submission.workflowId;
    const unassigned =
      `{"reassignmentId":"${e.reassignmentId}","contractId":"${ledger.ids.contractId(c.createdOffset, c.nodeId)}","templateId":${c.template.templateIdJson},` +
      `"source":${syncIdJson(ledger, e.source)},"target":${syncIdJson(ledger, e.target)},"submitter":${JSON.stringify(e.submitter)},` +
      `"reassignmentCounter":${e.reassignmentCounter},"assignmentExclusivity":null,"witnessParties":${arrayJson(m.parties)},` +
      `"packageName":${c.template.packageNameJson},"offset":${entry.unassignedAt.offset},"nodeId":${e.nodeId}}`;
    contractEntry = `{"JsIncompleteUnassigned":{"createdEvent":${created},"unassignedEvent":${unassigned}}}`;
  }
  const token = ledger.api.fieldsOf35 ? `,"streamContinuationToken":${JSON.stringify(continuationToken)}` : '';
  return `{"workflowId":${JSON.stringify(workflowId)},"contractEntry":${contractEntry}${token}}`;
}
