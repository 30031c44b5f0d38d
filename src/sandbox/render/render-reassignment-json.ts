import type { Ledger } from '../ledger/ledger.js';
import type { CompiledEventFormat } from '../format/compile-event-format.js';
import { formatInstant } from './format-instant.js';
import { jsonPieces } from './json-pieces.js';
import { matchEvent } from '../format/match-event.js';
import type { ReassignmentRecord } from '../ledger/update-record.js';

const { arrayJson, hostedOnly, syncIdJson, traceContextJson, commandIdJson, trafficCost, createdEventJson } = jsonPieces;

/**
 * The `JsReassignment` JSON of a reassignment. With `events`, its events are filtered with ACS-delta
 * semantics (stakeholders); without, `events` is `[]` (what submit-and-wait-for-reassignment answers to
 * a request without `eventFormat`). `undefined` when every event is filtered out, unless `keepEmpty`.
 * `submitterView` shows the command id regardless of the format (the submitter's own answer).
 */
export function renderReassignmentJson(
  ledger: Ledger,
  r: ReassignmentRecord,
  events: CompiledEventFormat | undefined,
  options: { readonly keepEmpty: boolean; readonly submitterView: boolean },
): string | undefined {
  const ids = ledger.ids;
  let out = '';
  if (events) {
    for (const e of r.events) {
      const c = e.contract;
      const m = matchEvent(events, hostedOnly(ledger, c.stakeholders), c.template);
      if (!m) continue;
      const source = syncIdJson(ledger, e.source);
      const target = syncIdJson(ledger, e.target);
      let piece: string;
      if (e.type === 'unassign') {
        piece =
          `{"JsUnassignedEvent":{"value":{"reassignmentId":"${e.reassignmentId}","contractId":"${ids.contractId(c.createdOffset, c.nodeId)}",` +
          `"templateId":${c.template.templateIdJson},"source":${source},"target":${target},"submitter":${JSON.stringify(e.submitter)},` +
          `"reassignmentCounter":${e.reassignmentCounter},"assignmentExclusivity":null,"witnessParties":${arrayJson(m.parties)},` +
          `"packageName":${c.template.packageNameJson},"offset":${r.offset},"nodeId":${e.nodeId}}}}`;
      } else {
        const createdAt = ledger.creatingTransaction(c).recordTimeMs;
        piece =
          `{"JsAssignmentEvent":{"source":${source},"target":${target},"reassignmentId":"${e.reassignmentId}",` +
          `"submitter":${JSON.stringify(e.submitter)},"reassignmentCounter":${e.reassignmentCounter},` +
          `"createdEvent":${createdEventJson(ledger, c, r.offset, e.nodeId, createdAt, m, true)}}}`;
      }
      out = out === '' ? piece : `${out},${piece}`;
    }
  }
  if (out === '' && !options.keepEmpty) return undefined;
  const s = r.submission;
  return (
    `{"updateId":"${ids.updateId(r.offset)}","commandId":${commandIdJson(s, r.offset, events, options.submitterView)},` +
    `"workflowId":${JSON.stringify(s.workflowId)},"offset":${r.offset},"events":[${out}],"traceContext":${traceContextJson(s)},` +
    `"recordTime":"${formatInstant(r.recordTimeMs)}","synchronizerId":${syncIdJson(ledger, r.synchronizer)},"paidTrafficCost":${trafficCost(r.offset)}}`
  );
}
