import type { PoolClient } from 'pg';
import type { IngestBatch } from './ingest-batch.js';
import { pgTextArray } from './pg-text-array.js';

/**
 * JSON documents as one newline-separated text, split again by `string_to_table(…, E'\n')`: much cheaper
 * for PostgreSQL than a `jsonb[]` literal, whose every quote must be escaped. Serialized JSON never holds
 * a raw newline; `null` becomes an empty line (read back with `NULLIF(…, '')`).
 */
function jsonLines(values: readonly (string | null)[]): string {
  return values.map((v) => v ?? '').join('\n');
}

/**
 * Writes the rows of `batch` for `streamName` with one multi-row statement per table (`unnest` of
 * column arrays; JSON columns as newline-separated text), in the caller's transaction: first the
 * `active_contracts` rows the batch archived, unassigned or reassigned are deleted; then `updates`,
 * `created_events` (whose statement also copies the contracts still active at the end of the batch into
 * `active_contracts`), `archived_events`, `exercised_events`, `reassignment_events`, and the contracts
 * made active by an assignment. Statements with no rows are skipped. Rejects on the first
 * failing statement (the caller rolls back).
 */
export async function writeBatch(client: PoolClient, batch: IngestBatch, streamName: string): Promise<void> {
  const deletes = batch.acsDeletes;
  // First: contracts of earlier batches that this batch archived, unassigned or (re)assigned.
  if (deletes.length > 0) {
    await client.query({
      name: 'ledger-rx-delete-active',
      text: 'DELETE FROM active_contracts WHERE stream_name = $1 AND contract_id = ANY($2::text[])',
      values: [streamName, deletes],
    });
  }
  const keptIds = new Set(batch.acsCreated);
  const kept = batch.acsInserts.filter((r) => keptIds.has(r.contractId));
  const u = batch.updates;
  if (u.length > 0) {
    await client.query({
      name: 'ledger-rx-insert-updates',
      text: `INSERT INTO updates (stream_name, ledger_offset, update_id, kind, record_time, synchronizer_id, command_id, workflow_id, effective_at, element)
             SELECT $1, o, u, k, r, s, c, w, e, el::jsonb
             FROM ROWS FROM (unnest($2::bigint[], $3::text[], $4::text[], $5::timestamptz[], $6::text[], $7::text[], $8::text[], $9::timestamptz[]),
                             string_to_table($10::text, E'\\n')) AS x(o, u, k, r, s, c, w, e, el)`,
      values: [
        streamName,
        u.map((r) => r.offset),
        u.map((r) => r.updateId),
        u.map((r) => r.kind),
        u.map((r) => r.recordTime),
        u.map((r) => r.synchronizerId),
        u.map((r) => r.commandId),
        u.map((r) => r.workflowId),
        u.map((r) => r.effectiveAt),
        jsonLines(u.map((r) => r.elementJson)),
      ],
    });
  }
  const c = batch.created;
  if (c.length > 0) {
    // The active contracts made by these creates are copied from the inserted rows (no second JSON parse).
    await client.query({
      name: 'ledger-rx-insert-created',
      text: `WITH inserted AS (
               INSERT INTO created_events (stream_name, ledger_offset, node_id, contract_id, template_id, package_name, create_argument, contract_key,
                 signatories, observers, witness_parties, created_at, acs_delta)
               SELECT $1, o, n, c, t, p, a::jsonb, NULLIF(k, '')::jsonb, s::text[], ob::text[], w::text[], ca, d
               FROM ROWS FROM (unnest($2::bigint[], $3::int[], $4::text[], $5::text[], $6::text[], $9::text[], $10::text[], $11::text[],
                                      $12::timestamptz[], $13::boolean[]),
                               string_to_table($7::text, E'\\n'), string_to_table($8::text, E'\\n'))
                 AS x(o, n, c, t, p, s, ob, w, ca, d, a, k)
               RETURNING ledger_offset, contract_id, template_id, package_name, create_argument, contract_key, signatories, observers, created_at)
             INSERT INTO active_contracts (stream_name, contract_id, template_id, package_name, create_argument, contract_key, signatories, observers,
               created_offset, created_at, synchronizer_id, reassignment_counter)
             SELECT $1, i.contract_id, i.template_id, i.package_name, i.create_argument, i.contract_key, i.signatories, i.observers,
               i.ledger_offset, i.created_at, sy, 0
             FROM inserted i JOIN unnest($14::text[], $15::text[]) AS keep(id, sy) ON keep.id = i.contract_id`,
      values: [
        streamName,
        c.map((r) => r.offset),
        c.map((r) => r.nodeId),
        c.map((r) => r.contractId),
        c.map((r) => r.templateId),
        c.map((r) => r.packageName),
        jsonLines(c.map((r) => r.createArgumentJson)),
        jsonLines(c.map((r) => r.contractKeyJson)),
        c.map((r) => pgTextArray(r.signatories)),
        c.map((r) => pgTextArray(r.observers)),
        c.map((r) => pgTextArray(r.witnessParties)),
        c.map((r) => r.createdAt),
        c.map((r) => r.acsDelta),
        kept.map((r) => r.contractId),
        kept.map((r) => r.synchronizerId),
      ],
    });
  }
  const a = batch.archived;
  if (a.length > 0) {
    await client.query({
      name: 'ledger-rx-insert-archived',
      text: `INSERT INTO archived_events (stream_name, ledger_offset, node_id, contract_id, template_id, package_name, witness_parties)
             SELECT $1, o, n, c, t, p, w::text[] FROM unnest($2::bigint[], $3::int[], $4::text[], $5::text[], $6::text[], $7::text[]) AS x(o, n, c, t, p, w)`,
      values: [
        streamName,
        a.map((r) => r.offset),
        a.map((r) => r.nodeId),
        a.map((r) => r.contractId),
        a.map((r) => r.templateId),
        a.map((r) => r.packageName),
        a.map((r) => pgTextArray(r.witnessParties)),
      ],
    });
  }
  const e = batch.exercised;
  if (e.length > 0) {
    await client.query({
      name: 'ledger-rx-insert-exercised',
      text: `INSERT INTO exercised_events (stream_name, ledger_offset, node_id, contract_id, template_id, interface_id, package_name, choice, choice_argument,
               acting_parties, consuming, witness_parties, last_descendant_node_id, exercise_result, acs_delta)
             SELECT $1, o, n, c, t, i, p, ch, ca::jsonb, ap::text[], co, w::text[], l, NULLIF(r, '')::jsonb, d
             FROM ROWS FROM (unnest($2::bigint[], $3::int[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $10::text[], $11::boolean[],
                                    $12::text[], $13::int[], $15::boolean[]),
                             string_to_table($9::text, E'\\n'), string_to_table($14::text, E'\\n'))
               AS x(o, n, c, t, i, p, ch, ap, co, w, l, d, ca, r)`,
      values: [
        streamName,
        e.map((r) => r.offset),
        e.map((r) => r.nodeId),
        e.map((r) => r.contractId),
        e.map((r) => r.templateId),
        e.map((r) => r.interfaceId),
        e.map((r) => r.packageName),
        e.map((r) => r.choice),
        jsonLines(e.map((r) => r.choiceArgumentJson)),
        e.map((r) => pgTextArray(r.actingParties)),
        e.map((r) => r.consuming),
        e.map((r) => pgTextArray(r.witnessParties)),
        e.map((r) => r.lastDescendantNodeId),
        jsonLines(e.map((r) => r.exerciseResultJson)),
        e.map((r) => r.acsDelta),
      ],
    });
  }
  const re = batch.reassignments;
  if (re.length > 0) {
    await client.query({
      name: 'ledger-rx-insert-reassignments',
      text: `INSERT INTO reassignment_events (stream_name, ledger_offset, node_id, kind, reassignment_id, contract_id, template_id, package_name,
               source_synchronizer, target_synchronizer, reassignment_counter, submitter, witness_parties)
             SELECT $1, o, n, k, ri, c, t, p, s, tg, rc, sb, w::text[]
             FROM unnest($2::bigint[], $3::int[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::bigint[],
                         $12::text[], $13::text[]) AS x(o, n, k, ri, c, t, p, s, tg, rc, sb, w)`,
      values: [
        streamName,
        re.map((r) => r.offset),
        re.map((r) => r.nodeId),
        re.map((r) => r.kind),
        re.map((r) => r.reassignmentId),
        re.map((r) => r.contractId),
        re.map((r) => r.templateId),
        re.map((r) => r.packageName),
        re.map((r) => r.source),
        re.map((r) => r.target),
        re.map((r) => r.reassignmentCounter),
        re.map((r) => r.submitter),
        re.map((r) => pgTextArray(r.witnessParties)),
      ],
    });
  }
  const inserts = batch.acsAssigned;
  if (inserts.length > 0) {
    await client.query({
      name: 'ledger-rx-insert-active',
      text: `INSERT INTO active_contracts (stream_name, contract_id, template_id, package_name, create_argument, contract_key, signatories, observers,
               created_offset, created_at, synchronizer_id, reassignment_counter)
             SELECT $1, c, t, p, a::jsonb, NULLIF(k, '')::jsonb, s::text[], ob::text[], o, ca, sy, rc
             FROM ROWS FROM (unnest($2::text[], $3::text[], $4::text[], $7::text[], $8::text[], $9::bigint[], $10::timestamptz[], $11::text[], $12::bigint[]),
                             string_to_table($5::text, E'\\n'), string_to_table($6::text, E'\\n'))
               AS x(c, t, p, s, ob, o, ca, sy, rc, a, k)`,
      values: [
        streamName,
        inserts.map((r) => r.contractId),
        inserts.map((r) => r.templateId),
        inserts.map((r) => r.packageName),
        jsonLines(inserts.map((r) => r.createArgumentJson)),
        jsonLines(inserts.map((r) => r.contractKeyJson)),
        inserts.map((r) => pgTextArray(r.signatories)),
        inserts.map((r) => pgTextArray(r.observers)),
        inserts.map((r) => r.createdOffset),
        inserts.map((r) => r.createdAt),
        inserts.map((r) => r.synchronizerId),
        inserts.map((r) => r.reassignmentCounter),
      ],
    });
  }
}
