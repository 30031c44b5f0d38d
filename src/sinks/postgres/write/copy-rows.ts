import type { ActiveContractRow, ArchivedRow, CreatedRow, ExercisedRow, ReassignmentRow, UpdateRow } from '../ingest-rows.js';
import type { CopyBinary } from './copy-binary.js';

/** How the rows of one table are copied: its `COPY … FROM STDIN` statement and the fields of a row after `stream_name`. */
export interface CopyTable<R> {
  readonly statement: string;
  /** Columns of a row, `stream_name` included (`CopyBinary` writes their number before each row). */
  readonly columns: number;
  write(out: CopyBinary, row: R): void;
}

/**
 * Where a `created_events` row's columns that `active_contracts` has too, in the same order (`contract_id` to
 * `observers`), lie in the data it was written to (`CopyBinary.position`s).
 */
export interface SharedColumns {
  readonly start: number;
  readonly end: number;
}

const copy = (table: string, columns: string) => ({
  statement: `COPY ${table} (stream_name, ${columns}) FROM STDIN WITH (FORMAT binary)`,
  columns: columns.split(', ').length + 1,
});

/**
 * The tables a batch of updates is copied into (docs/ingest.md, "COPY"), each row written with exactly the values
 * the multi-row `INSERT`s of earlier versions stored: the element as sent (`json`), the arguments as JSON text
 * (parsed into `jsonb` by PostgreSQL), timestamps as the participant wrote them (parsed by PostgreSQL, or converted
 * exactly as it would by the binary writer), party lists as `text[]`. Each column is written by the writer's
 * method of its type (COPY's binary format, `CopyBinary`). `active_contracts.origin` is left to its default (`update`).
 *
 * The element of an `updates` row is copied from the bytes the transport received when it has them
 * (`CopyBinary.textWithBytes`), and the `active_contracts` row of a contract created in the batch takes the columns it
 * shares with its `created_events` row from that row's bytes (`activeOfCreated`): encoded once for both tables.
 */
export const copyRows = {
  updates: {
    ...copy('updates', 'ledger_offset, update_id, kind, record_time, synchronizer_id, command_id, workflow_id, effective_at, element'),
    /** `elementBytes`: the UTF-8 bytes of `r.elementJson` as the transport received them, when it had them. */
    write: (out: CopyBinary, r: UpdateRow, elementBytes?: Uint8Array) => {
      out.row().int8(r.offset).text(r.updateId).text(r.kind).timestamp(r.recordTime, 'record_time').text(r.synchronizerId).text(r.commandId).text(r.workflowId).timestamp(r.effectiveAt, 'effective_at');
      if (elementBytes === undefined) out.json(r.elementJson);
      else out.textWithBytes(elementBytes);
    },
  } satisfies CopyTable<UpdateRow>,
  created: {
    ...copy(
      'created_events',
      'ledger_offset, node_id, contract_id, template_id, package_name, create_argument, contract_key, signatories, observers, witness_parties, created_at, acs_delta',
    ),
    /** Returns where the columns `active_contracts` shares lie (see {@link SharedColumns}). */
    write: (out: CopyBinary, r: CreatedRow): SharedColumns => {
      out.row().int8(r.offset).int4(r.nodeId);
      const start = out.position;
      out.text(r.contractId).text(r.templateId).text(r.packageName).jsonb(r.createArgumentJson).jsonb(r.contractKeyJson).textArray(r.signatories).textArray(r.observers);
      const end = out.position;
      out.textArray(r.witnessParties).timestamp(r.createdAt, 'created_at').bool(r.acsDelta);
      return { start, end };
    },
  } satisfies CopyTable<CreatedRow>,
  archived: {
    ...copy('archived_events', 'ledger_offset, node_id, contract_id, template_id, package_name, witness_parties'),
    write: (out, r) => {
      out.row().int8(r.offset).int4(r.nodeId).text(r.contractId).text(r.templateId).text(r.packageName).textArray(r.witnessParties);
    },
  } satisfies CopyTable<ArchivedRow>,
  exercised: {
    ...copy(
      'exercised_events',
      'ledger_offset, node_id, contract_id, template_id, interface_id, package_name, choice, choice_argument, acting_parties, consuming, witness_parties, last_descendant_node_id, exercise_result, acs_delta',
    ),
    write: (out, r) => {
      out
        .row()
        .int8(r.offset)
        .int4(r.nodeId)
        .text(r.contractId)
        .text(r.templateId)
        .text(r.interfaceId)
        .text(r.packageName)
        .text(r.choice)
        .jsonb(r.choiceArgumentJson)
        .textArray(r.actingParties)
        .bool(r.consuming)
        .textArray(r.witnessParties)
        .int4(r.lastDescendantNodeId)
        .jsonb(r.exerciseResultJson)
        .bool(r.acsDelta);
    },
  } satisfies CopyTable<ExercisedRow>,
  reassignments: {
    ...copy(
      'reassignment_events',
      'ledger_offset, node_id, kind, reassignment_id, contract_id, template_id, package_name, source_synchronizer, target_synchronizer, reassignment_counter, submitter, witness_parties',
    ),
    write: (out, r) => {
      out
        .row()
        .int8(r.offset)
        .int4(r.nodeId)
        .text(r.kind)
        .text(r.reassignmentId)
        .text(r.contractId)
        .text(r.templateId)
        .text(r.packageName)
        .text(r.source)
        .text(r.target)
        .int8(r.reassignmentCounter)
        .text(r.submitter)
        .textArray(r.witnessParties);
    },
  } satisfies CopyTable<ReassignmentRow>,
  active: {
    ...copy(
      'active_contracts',
      'contract_id, template_id, package_name, create_argument, contract_key, signatories, observers, created_offset, created_at, synchronizer_id, reassignment_counter',
    ),
    write: (out, r) => {
      out
        .row()
        .text(r.contractId)
        .text(r.templateId)
        .text(r.packageName)
        .jsonb(r.createArgumentJson)
        .jsonb(r.contractKeyJson)
        .textArray(r.signatories)
        .textArray(r.observers)
        .int8(r.createdOffset)
        .timestamp(r.createdAt, 'created_at')
        .text(r.synchronizerId)
        .int8(r.reassignmentCounter);
    },
  } satisfies CopyTable<ActiveContractRow>,
  /**
   * The `active_contracts` row `r` of a contract whose `created_events` row was written to `created` (`shared`: where
   * its columns from `contract_id` to `observers` lie there, as `copyRows.created.write` returned it): those columns
   * are copied, not encoded again. The same bytes as `copyRows.active.write(out, r)`.
   */
  activeOfCreated: (out: CopyBinary, r: ActiveContractRow, created: CopyBinary, shared: SharedColumns): void => {
    out.row().bytes(created, shared.start, shared.end).int8(r.createdOffset).timestamp(r.createdAt, 'created_at').text(r.synchronizerId).int8(r.reassignmentCounter);
  },
};
