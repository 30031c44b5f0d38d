import type { CreatedRow } from './ingest-rows.js';
import { wireFields, type Json } from './wire-fields.js';

const { str, text, int, strings, json, jsonOrNull } = wireFields;

/** The `created_events` row of a `CreatedEvent` (fields read defensively, see `wireFields`). Pure. */
export function createdRow(e: Json): CreatedRow {
  return {
    offset: int(e['offset']),
    nodeId: int(e['nodeId']),
    contractId: text(e['contractId']),
    templateId: text(e['templateId']),
    packageName: text(e['packageName']),
    createArgumentJson: json(e['createArgument']),
    contractKeyJson: jsonOrNull(e['contractKey']),
    signatories: strings(e['signatories']),
    observers: strings(e['observers']),
    witnessParties: strings(e['witnessParties']),
    createdAt: str(e['createdAt']),
    acsDelta: e['acsDelta'] !== false,
  };
}
