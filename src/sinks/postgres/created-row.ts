import type { CreatedRow, InterfaceViewRow } from './ingest-rows.js';
import { wireFields, type Json } from './wire-fields.js';

const { isObject, str, text, int, strings, json, jsonOrNull } = wireFields;

/** The computed interface views of a created event: those with a `viewValue` and no failed `viewStatus` (code 0 or none). */
function interfaceViewsOf(e: Json, offset: number, contractId: string): InterfaceViewRow[] {
  const views = e['interfaceViews'];
  if (!Array.isArray(views) || views.length === 0) return [];
  const rows: InterfaceViewRow[] = [];
  for (const v of views) {
    if (!isObject(v) || v['viewValue'] === undefined || v['viewValue'] === null || typeof v['interfaceId'] !== 'string') continue;
    const status = v['viewStatus'];
    if (isObject(status) && typeof status['code'] === 'number' && status['code'] !== 0) continue;
    rows.push({ offset, contractId, interfaceId: v['interfaceId'], viewValueJson: JSON.stringify(v['viewValue']) });
  }
  return rows;
}

/** The `created_events` row of a `CreatedEvent`, with its computed interface views (fields read defensively, see `wireFields`). Pure. */
export function createdRow(e: Json): CreatedRow {
  const offset = int(e['offset']);
  const contractId = text(e['contractId']);
  return {
    offset,
    nodeId: int(e['nodeId']),
    contractId,
    templateId: text(e['templateId']),
    packageName: text(e['packageName']),
    createArgumentJson: json(e['createArgument']),
    contractKeyJson: jsonOrNull(e['contractKey']),
    signatories: strings(e['signatories']),
    observers: strings(e['observers']),
    witnessParties: strings(e['witnessParties']),
    createdAt: str(e['createdAt']),
    acsDelta: e['acsDelta'] !== false,
    interfaceViews: interfaceViewsOf(e, offset, contractId),
  };
}
