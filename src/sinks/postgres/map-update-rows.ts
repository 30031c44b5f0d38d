import type { JsGetUpdatesResponse } from '../../schemas/updates.js';
import { isUnknownVariant } from '../../schemas/variant.js';
import { updateOffset } from '../../updates/update-offset.js';
import { wireJson } from '../../updates/wire-json.js';
import { activeRow } from './active-row.js';
import { createdRow } from './created-row.js';
import type { AcsChange, ArchivedRow, CreatedRow, ExercisedRow, IngestRows, InterfaceViewRow, ReassignmentRow, UpdateRow } from './ingest-rows.js';
import { wireFields, type Json } from './wire-fields.js';

const { isObject, str, text, int, strings, json, jsonOrNull } = wireFields;

/** The single `{tag: payload}` entry of a variant object. */
function variantOf(v: unknown): [string, unknown] | undefined {
  if (isUnknownVariant(v)) return [v.unknownVariant, v.payload];
  if (!isObject(v)) return undefined;
  for (const key in v) return [key, v[key]];
  return undefined;
}

const empty: Omit<IngestRows, 'offset' | 'update'> = { created: [], archived: [], exercised: [], reassignments: [], acs: [], views: [] };

/**
 * Maps one element of `POST /v2/updates` (validated or not) to the rows it adds to the ingestion tables:
 *
 * - `Transaction`: an `updates` row (kind `transaction`) and one row per event — `CreatedEvent` →
 *   `created_events`, `ArchivedEvent` → `archived_events` (ACS-delta shape), `ExercisedEvent` →
 *   `exercised_events` (ledger-effects shape); ACS changes: a create adds the contract (unless its
 *   `acsDelta` is false: transient, or only witnessed), an archive or an ACS-delta consuming exercise
 *   removes it.
 * - `Reassignment`: an `updates` row and a `reassignment_events` row per (un)assignment; an unassignment
 *   removes the contract from the ACS, an assignment adds it on the target synchronizer.
 * - `TopologyTransaction`: an `updates` row only. An unknown update kind: an `updates` row (kind
 *   `unknown`) when it has an offset.
 * - `OffsetCheckpoint`: no rows; its offset moves the checkpoint.
 *
 * The computed interface views of creates and assignments go to `views` (`ledger_rx_interface_views`).
 *
 * Fields are read defensively (unvalidated elements): a missing string becomes `""`, a missing number 0.
 */
export function mapUpdateRows(element: JsGetUpdatesResponse): IngestRows {
  const offset = updateOffset(element);
  const entry = variantOf(element.update);
  if (!entry) return { offset, update: undefined, ...empty };
  const [tag, payload] = entry;
  const value = isObject(payload) ? (isUnknownVariant(element.update) ? (isObject(payload['value']) ? payload['value'] : payload) : payload['value']) : undefined;
  const v: Json = isObject(value) ? value : {};
  if (tag === 'OffsetCheckpoint') {
    return { offset, update: undefined, ...empty };
  }
  if (offset === undefined) return { offset, update: undefined, ...empty };
  const synchronizerId = str(v['synchronizerId']);
  const recordTime = str(v['recordTime']);
  const kind: UpdateRow['kind'] =
    tag === 'Transaction' ? 'transaction' : tag === 'Reassignment' ? 'reassignment' : tag === 'TopologyTransaction' ? 'topology_transaction' : 'unknown';
  const update: UpdateRow = {
    offset,
    updateId: text(v['updateId']),
    kind,
    recordTime,
    synchronizerId,
    commandId: str(v['commandId']),
    workflowId: str(v['workflowId']),
    effectiveAt: str(v['effectiveAt']),
    elementJson: wireJson(element),
  };
  const events = Array.isArray(v['events']) ? v['events'] : [];
  const created: CreatedRow[] = [];
  const archived: ArchivedRow[] = [];
  const exercised: ExercisedRow[] = [];
  const reassignments: ReassignmentRow[] = [];
  const acs: AcsChange[] = [];
  const views: InterfaceViewRow[] = [];

  if (kind === 'transaction') {
    for (const event of events) {
      const ev = variantOf(event);
      if (!ev || !isObject(ev[1])) continue;
      const [eventTag, e] = ev as [string, Json];
      if (eventTag === 'CreatedEvent') {
        const row = createdRow(e);
        created.push(row);
        for (const v of row.interfaceViews) views.push(v);
        if (row.acsDelta) acs.push({ type: 'add', row: activeRow(row, synchronizerId ?? '', 0), replaces: false, created: created.length - 1 });
      } else if (eventTag === 'ArchivedEvent') {
        const row: ArchivedRow = {
          offset: int(e['offset']),
          nodeId: int(e['nodeId']),
          contractId: text(e['contractId']),
          templateId: text(e['templateId']),
          packageName: text(e['packageName']),
          witnessParties: strings(e['witnessParties']),
        };
        archived.push(row);
        acs.push({ type: 'remove', contractId: row.contractId });
      } else if (eventTag === 'ExercisedEvent') {
        const row: ExercisedRow = {
          offset: int(e['offset']),
          nodeId: int(e['nodeId']),
          contractId: text(e['contractId']),
          templateId: text(e['templateId']),
          interfaceId: str(e['interfaceId']),
          packageName: text(e['packageName']),
          choice: text(e['choice']),
          choiceArgumentJson: json(e['choiceArgument']),
          actingParties: strings(e['actingParties']),
          consuming: e['consuming'] === true,
          witnessParties: strings(e['witnessParties']),
          lastDescendantNodeId: int(e['lastDescendantNodeId']),
          exerciseResultJson: jsonOrNull(e['exerciseResult']),
          acsDelta: e['acsDelta'] === true,
        };
        exercised.push(row);
        if (row.consuming && row.acsDelta) acs.push({ type: 'remove', contractId: row.contractId });
      }
    }
  } else if (kind === 'reassignment') {
    for (const event of events) {
      const ev = variantOf(event);
      if (!ev || !isObject(ev[1])) continue;
      const [eventTag, raw] = ev as [string, Json];
      if (eventTag === 'JsUnassignedEvent') {
        const e = isObject(raw['value']) ? raw['value'] : raw;
        const row: ReassignmentRow = {
          offset: int(e['offset']),
          nodeId: int(e['nodeId']),
          kind: 'unassign',
          reassignmentId: text(e['reassignmentId']),
          contractId: text(e['contractId']),
          templateId: text(e['templateId']),
          packageName: text(e['packageName']),
          source: text(e['source']),
          target: text(e['target']),
          reassignmentCounter: int(e['reassignmentCounter']),
          submitter: str(e['submitter']),
          witnessParties: strings(e['witnessParties']),
        };
        reassignments.push(row);
        acs.push({ type: 'remove', contractId: row.contractId });
      } else if (eventTag === 'JsAssignmentEvent') {
        const c = isObject(raw['createdEvent']) ? raw['createdEvent'] : {};
        const createdEvent = createdRow(c);
        for (const v of createdEvent.interfaceViews) views.push(v);
        const row: ReassignmentRow = {
          offset: createdEvent.offset,
          nodeId: createdEvent.nodeId,
          kind: 'assign',
          reassignmentId: text(raw['reassignmentId']),
          contractId: createdEvent.contractId,
          templateId: createdEvent.templateId,
          packageName: createdEvent.packageName,
          source: text(raw['source']),
          target: text(raw['target']),
          reassignmentCounter: int(raw['reassignmentCounter']),
          submitter: str(raw['submitter']),
          witnessParties: createdEvent.witnessParties,
        };
        reassignments.push(row);
        acs.push({ type: 'add', row: activeRow(createdEvent, row.target, row.reassignmentCounter), replaces: true });
      }
    }
  }
  return { offset, update, created, archived, exercised, reassignments, acs, views };
}
