import type { Ledger } from '../ledger/ledger.js';
import type { CompiledEventFormat } from '../format/compile-event-format.js';
import { formatInstant } from './format-instant.js';
import { jsonPieces, type TextCuts } from './json-pieces.js';
import { matchEvent, type EventMatch } from '../format/match-event.js';
import type { ExerciseRecord, TransactionRecord } from '../ledger/update-record.js';

const { arrayJson, hostedOnly, syncIdJson, traceContextJson, commandIdJson, trafficCost, createdEventJson } = jsonPieces;
const createdWrapper = '{"CreatedEvent":';

function interfaceIdsJson(m: EventMatch): string {
  return m.views.length === 0 ? '[]' : JSON.stringify(m.views.map((v) => v.interfaceId));
}

function archivedEventJson(ledger: Ledger, e: ExerciseRecord, offset: number, m: EventMatch): string {
  const c = e.target;
  return (
    `{"ArchivedEvent":{"offset":${offset},"nodeId":${e.nodeId},"contractId":"${ledger.ids.contractId(c.createdOffset, c.nodeId)}",` +
    `"templateId":${c.template.templateIdJson},"witnessParties":${arrayJson(m.parties)},"packageName":${c.template.packageNameJson},` +
    `"implementedInterfaces":${interfaceIdsJson(m)}}}`
  );
}

function exercisedEventJson(ledger: Ledger, e: ExerciseRecord, offset: number, m: EventMatch, acsDelta: boolean): string {
  const c = e.target;
  return (
    `{"ExercisedEvent":{"offset":${offset},"nodeId":${e.nodeId},"contractId":"${ledger.ids.contractId(c.createdOffset, c.nodeId)}",` +
    `"templateId":${c.template.templateIdJson},"interfaceId":${e.interface ? JSON.stringify(e.interface.interfaceId) : 'null'},` +
    `"choice":${JSON.stringify(e.choice)},"choiceArgument":${e.choiceArgumentJson},"actingParties":${arrayJson(e.actingParties)},` +
    `"consuming":${e.consuming},"witnessParties":${arrayJson(m.parties)},"lastDescendantNodeId":${e.lastDescendantNodeId},` +
    `"exerciseResult":{},"packageName":${c.template.packageNameJson},"implementedInterfaces":${e.consuming ? interfaceIdsJson(m) : '[]'},` +
    `"acsDelta":${acsDelta}}}`
  );
}

/**
 * The events of a transaction under a shape. ACS delta: created events of non-transient contracts and
 * archived events of consuming exercises on contracts created earlier, for stakeholders. Ledger effects:
 * every created and exercised event, for witnesses, with `acsDelta` telling which ones the ACS delta has.
 */
function transactionEventsJson(ledger: Ledger, tx: TransactionRecord, shape: 'acs-delta' | 'ledger-effects', events: CompiledEventFormat, cuts: TextCuts | undefined): string {
  let out = '';
  /** Where a created event's fields start in `out` once its piece is appended (after the separator and the wrapper). */
  const createdAt = () => out.length + (out === '' ? 0 : 1) + createdWrapper.length;
  for (const node of tx.nodes) {
    let piece: string | undefined;
    if (node.kind === 'create') {
      const transient = node.archivedOffset === tx.offset;
      if (shape === 'acs-delta') {
        if (transient) continue;
        const m = matchEvent(events, hostedOnly(ledger, node.stakeholders), node.template);
        if (m) piece = `${createdWrapper}${createdEventJson(ledger, node, tx.offset, node.nodeId, tx.recordTimeMs, m, true, cuts, cuts && createdAt())}}`;
      } else {
        const m = matchEvent(events, hostedOnly(ledger, node.witnesses), node.template);
        if (m) piece = `${createdWrapper}${createdEventJson(ledger, node, tx.offset, node.nodeId, tx.recordTimeMs, m, !transient, cuts, cuts && createdAt())}}`;
      }
    } else {
      const acsDelta = node.consuming && node.target.createdOffset !== tx.offset;
      if (shape === 'acs-delta') {
        if (!acsDelta) continue;
        const m = matchEvent(events, hostedOnly(ledger, node.target.stakeholders), node.target.template);
        if (m) piece = archivedEventJson(ledger, node, tx.offset, m);
      } else {
        const m = matchEvent(events, hostedOnly(ledger, node.witnesses), node.target.template);
        if (m) piece = exercisedEventJson(ledger, node, tx.offset, m, acsDelta);
      }
    }
    if (piece !== undefined) out = out === '' ? piece : `${out},${piece}`;
  }
  return out;
}

/**
 * The `JsTransaction` JSON of a transaction, or `undefined` when no event passes the format (the server
 * does not emit transactions whose events are all filtered out). `effectiveAt` equals `recordTime`. With
 * `cuts`, pushes the {@link TextCuts} of the returned text (placed at `at`).
 */
export function renderTransactionJson(
  ledger: Ledger,
  tx: TransactionRecord,
  shape: 'acs-delta' | 'ledger-effects',
  events: CompiledEventFormat,
  cuts?: TextCuts,
  at = 0,
): string | undefined {
  const first = cuts?.length ?? 0;
  const body = transactionEventsJson(ledger, tx, shape, events, cuts);
  if (body === '') return undefined;
  const s = tx.submission;
  const time = formatInstant(tx.recordTimeMs);
  const hash = s.transactionHash === undefined ? 'null' : `"${s.transactionHash}"`;
  const head =
    `{"updateId":"${ledger.ids.updateId(tx.offset)}","commandId":${commandIdJson(s, tx.offset, events)},` +
    `"workflowId":${JSON.stringify(s.workflowId)},"effectiveAt":"${time}","events":[`;
  // the events' cuts were taken from the start of the body
  if (cuts !== undefined) for (let i = first; i < cuts.length; i++) cuts[i] = (cuts[i] as number) + at + head.length;
  return (
    `${head}${body}],"offset":${tx.offset},` +
    `"synchronizerId":${syncIdJson(ledger, tx.synchronizer)},"traceContext":${traceContextJson(s)},"recordTime":"${time}",` +
    `"externalTransactionHash":${hash},"paidTrafficCost":${trafficCost(tx.offset)}${ledger.api.transactionHash ? `,"transactionHash":${hash}` : ''}}`
  );
}
