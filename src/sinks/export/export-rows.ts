import type { JsGetActiveContractsResponse } from '../../schemas/active-contracts.js';
import type { JsGetUpdatesResponse } from '../../schemas/updates.js';
import { isUnknownVariant } from '../../schemas/variant.js';
import { updateOffset } from '../../updates/update-offset.js';
import { wireFields, type Json } from '../postgres/wire-fields.js';
import type { ExportValue } from './export-tables.js';
import { timestampMicros } from './record-date.js';

const { isObject, str, text, int, strings } = wireFields;

/** The rows one update element adds to the `updates` and `events` tables (see `exportTables`). */
export interface UpdateExportRows {
  readonly offset: number;
  /** Record time in µs since the epoch, when the update has one. */
  readonly recordTime: bigint | undefined;
  readonly update: readonly ExportValue[];
  readonly events: readonly (readonly ExportValue[])[];
  /** The created (and assigned) events among `events`: their `events` row and create argument, for the typed tables. */
  readonly created: readonly CreatedExportRow[];
}

/** A created event of an update: its `events` row and its create argument as the participant encoded it. */
export interface CreatedExportRow {
  readonly event: readonly ExportValue[];
  readonly argument: unknown;
}

/** The single `{tag: payload}` entry of a variant object (an unknown variant as the decoder keeps it). */
function variantOf(v: unknown): [string, unknown] | undefined {
  if (isUnknownVariant(v)) return [v.unknownVariant, v.payload];
  if (!isObject(v)) return undefined;
  for (const key in v) return [key, v[key]];
  return undefined;
}

/** JSON text of a value as the participant encoded it (`null` when absent). Daml values carry numbers as strings, so this is exact. */
const jsonText = (v: unknown): string | null => (v === undefined || v === null ? null : JSON.stringify(v));

/**
 * A template id in the package-name form `#<package-name>:<Module>:<Entity>` and the package id, from an
 * event's `templateId` (package-id form `<package-id>:<Module>:<Entity>`) and `packageName`. An id already
 * in the package-name form is kept, with no package id.
 */
function templateColumns(e: Json): [string | null, string | null] {
  const id = str(e['templateId']);
  if (id === null) return [null, null];
  const colon = id.indexOf(':');
  if (id.startsWith('#') || colon < 0) return [id, null];
  const packageName = str(e['packageName']);
  return [packageName === null ? id : `#${packageName}${id.slice(colon)}`, id.slice(0, colon)];
}

/** The `events` row of a created event (`kind` created, or assigned for the one inside an assignment). */
function createdEventRow(kind: string, offset: number, updateId: string, e: Json, recordTime: bigint | null): ExportValue[] {
  const [templateId, packageId] = templateColumns(e);
  return [
    BigInt(offset), updateId, int(e['nodeId']), kind, text(e['contractId']), templateId, packageId, str(e['packageName']),
    jsonText(e['createArgument']), jsonText(e['contractKey']), null, null, null, null,
    [], strings(e['signatories']), strings(e['observers']), strings(e['witnessParties']),
    Array.isArray(e['interfaceViews']) && e['interfaceViews'].length > 0 ? jsonText(e['interfaceViews']) : null,
    timestampMicros(str(e['createdAt'])) ?? null, recordTime,
  ];
}

/**
 * The rows of one element of `POST /v2/updates` (validated or not; fields read defensively), or `undefined`
 * for an element without ledger data (an `OffsetCheckpoint`, or no offset):
 *
 * - every update: an `updates` row (kind `transaction`, `reassignment`, `topology_transaction`, or `unknown`);
 * - a transaction: an `events` row per event (`created`, `archived`, `exercised`), payload = the create or
 *   choice argument; a reassignment: an `events` row per `assigned` (its created event) or `unassigned`
 *   event; a topology transaction: no events rows.
 */
export function updateExportRows(element: JsGetUpdatesResponse): UpdateExportRows | undefined {
  const offset = updateOffset(element);
  const entry = variantOf(element.update);
  if (offset === undefined || !entry || entry[0] === 'OffsetCheckpoint') return undefined;
  const [tag, payload] = entry;
  const value = isObject(payload) ? (isUnknownVariant(element.update) ? (isObject(payload['value']) ? payload['value'] : payload) : payload['value']) : undefined;
  const v: Json = isObject(value) ? value : {};
  const kind = tag === 'Transaction' ? 'transaction' : tag === 'Reassignment' ? 'reassignment' : tag === 'TopologyTransaction' ? 'topology_transaction' : 'unknown';
  const updateId = text(v['updateId']);
  const recordTime = timestampMicros(str(v['recordTime']));
  const record = recordTime ?? null;
  const update: ExportValue[] = [
    BigInt(offset), updateId, kind, record, timestampMicros(str(v['effectiveAt'])) ?? null, str(v['synchronizerId']),
    str(v['commandId']) || null, str(v['workflowId']) || null, jsonText(v['traceContext']),
  ];
  const events: ExportValue[][] = [];
  const created: CreatedExportRow[] = [];
  const list = kind === 'transaction' || kind === 'reassignment' ? (Array.isArray(v['events']) ? v['events'] : []) : [];
  for (const event of list) {
    const ev = variantOf(event);
    if (!ev || !isObject(ev[1])) continue;
    const [eventTag, raw] = ev as [string, Json];
    if (eventTag === 'CreatedEvent' || eventTag === 'JsAssignmentEvent') {
      const e = eventTag === 'CreatedEvent' ? raw : isObject(raw['createdEvent']) ? raw['createdEvent'] : {};
      const row = createdEventRow(eventTag === 'CreatedEvent' ? 'created' : 'assigned', offset, updateId, e, record);
      events.push(row);
      created.push({ event: row, argument: e['createArgument'] });
    }
    else if (eventTag === 'ArchivedEvent' || eventTag === 'ExercisedEvent' || eventTag === 'JsUnassignedEvent') {
      const e = eventTag === 'JsUnassignedEvent' && isObject(raw['value']) ? raw['value'] : raw;
      const exercised = eventTag === 'ExercisedEvent';
      const [templateId, packageId] = templateColumns(e);
      events.push([
        BigInt(offset), updateId, int(e['nodeId']), exercised ? 'exercised' : eventTag === 'ArchivedEvent' ? 'archived' : 'unassigned', text(e['contractId']),
        templateId, packageId, str(e['packageName']),
        exercised ? jsonText(e['choiceArgument']) : null, null,
        exercised ? text(e['choice']) : null, exercised ? e['consuming'] === true : null,
        exercised ? str(e['interfaceId']) : null, exercised ? jsonText(e['exerciseResult']) : null,
        strings(e['actingParties']), [], [], strings(e['witnessParties']), null, null, record,
      ]);
    }
  }
  return { offset, recordTime, update, events, created };
}

/**
 * The `active_contracts` row of one entry of an active-contract snapshot taken at `offset` (kind `active`,
 * `incomplete_assigned` or `incomplete_unassigned`), or `undefined` for an entry without a contract
 * (`JsEmpty`, an unknown kind).
 */
export function activeContractRow(offset: number, entry: JsGetActiveContractsResponse): ExportValue[] | undefined {
  const variant = variantOf((entry as { contractEntry?: unknown }).contractEntry);
  if (!variant || !isObject(variant[1])) return undefined;
  const [tag, raw] = variant as [string, Json];
  let kind: string;
  let created: unknown;
  let synchronizerId: unknown;
  let counter: unknown;
  if (tag === 'JsActiveContract') {
    kind = 'active';
    created = raw['createdEvent'];
    synchronizerId = raw['synchronizerId'];
    counter = raw['reassignmentCounter'];
  } else if (tag === 'JsIncompleteAssigned') {
    const assigned = isObject(raw['assignedEvent']) ? raw['assignedEvent'] : {};
    kind = 'incomplete_assigned';
    created = assigned['createdEvent'];
    synchronizerId = assigned['target'];
    counter = assigned['reassignmentCounter'];
  } else if (tag === 'JsIncompleteUnassigned') {
    const unassigned = isObject(raw['unassignedEvent']) ? raw['unassignedEvent'] : {};
    kind = 'incomplete_unassigned';
    created = raw['createdEvent'];
    synchronizerId = unassigned['source'];
    counter = unassigned['reassignmentCounter'];
  } else return undefined;
  const e: Json = isObject(created) ? created : {};
  const [templateId, packageId] = templateColumns(e);
  return [
    BigInt(offset), kind, text(e['contractId']), templateId, packageId, str(e['packageName']),
    jsonText(e['createArgument']), jsonText(e['contractKey']),
    strings(e['signatories']), strings(e['observers']), strings(e['witnessParties']),
    Array.isArray(e['interfaceViews']) && e['interfaceViews'].length > 0 ? jsonText(e['interfaceViews']) : null,
    timestampMicros(str(e['createdAt'])) ?? null, str(synchronizerId),
    counter === undefined || counter === null ? null : BigInt(int(counter)), e['offset'] === undefined ? null : BigInt(int(e['offset'])),
  ];
}
