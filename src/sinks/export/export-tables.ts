/** The Parquet type of an export column (docs/analytics-export.md, "Columns"). */
export type ExportColumnType =
  /** INT64 */
  | 'int64'
  /** INT32 */
  | 'int32'
  /** BYTE_ARRAY, UTF8 (DuckDB VARCHAR) */
  | 'string'
  /** BYTE_ARRAY, UTF8: the value's JSON text (DuckDB VARCHAR; its JSON functions apply) */
  | 'json'
  /** BOOLEAN */
  | 'bool'
  /** INT64, TIMESTAMP(MICROS, UTC) (DuckDB TIMESTAMP WITH TIME ZONE) */
  | 'timestamp'
  /** LIST of UTF8 (DuckDB VARCHAR[]); never null, empty when the field is absent */
  | 'strings';

/** One column of an export table. */
export interface ExportColumn {
  readonly name: string;
  readonly type: ExportColumnType;
  /** Whether the column may be null. */
  readonly nullable: boolean;
  /** Whether min/max statistics are written (for columns that are filtered on; not for unique ids and payloads). */
  readonly statistics: boolean;
}

const col = (name: string, type: ExportColumnType, nullable: boolean, statistics = false): ExportColumn => ({ name, type, nullable, statistics });

/** The tables of an export and their columns, in file order. */
export const exportTables = {
  /** One row per update (transaction, reassignment, topology transaction, or an unknown kind with an offset). */
  updates: [
    col('offset', 'int64', false, true),
    col('update_id', 'string', false),
    col('kind', 'string', false, true),
    col('record_time', 'timestamp', true, true),
    col('effective_at', 'timestamp', true, true),
    col('synchronizer_id', 'string', true, true),
    col('command_id', 'string', true),
    col('workflow_id', 'string', true),
    col('trace_context', 'json', true),
  ],
  /** One row per event of a transaction (created, archived, exercised) or a reassignment (assigned, unassigned). */
  events: [
    col('offset', 'int64', false, true),
    col('update_id', 'string', false),
    col('node_id', 'int32', false),
    col('kind', 'string', false, true),
    col('contract_id', 'string', false),
    col('template_id', 'string', true, true),
    col('package_id', 'string', true),
    col('package_name', 'string', true, true),
    col('payload', 'json', true),
    col('contract_key', 'json', true),
    col('choice', 'string', true, true),
    col('consuming', 'bool', true),
    col('interface_id', 'string', true),
    col('exercise_result', 'json', true),
    col('acting_parties', 'strings', false),
    col('signatories', 'strings', false),
    col('observers', 'strings', false),
    col('witnesses', 'strings', false),
    col('interface_views', 'json', true),
    col('created_at', 'timestamp', true),
    col('record_time', 'timestamp', true, true),
  ],
  /** One row per contract of an active-contract snapshot (`--from acs`). */
  active_contracts: [
    col('offset', 'int64', false, true),
    col('kind', 'string', false, true),
    col('contract_id', 'string', false),
    col('template_id', 'string', true, true),
    col('package_id', 'string', true),
    col('package_name', 'string', true, true),
    col('payload', 'json', true),
    col('contract_key', 'json', true),
    col('signatories', 'strings', false),
    col('observers', 'strings', false),
    col('witnesses', 'strings', false),
    col('interface_views', 'json', true),
    col('created_at', 'timestamp', true),
    col('synchronizer_id', 'string', true, true),
    col('reassignment_counter', 'int64', true),
    col('created_offset', 'int64', true),
  ],
} as const satisfies Record<string, readonly ExportColumn[]>;

/** The name of an export table. */
export type ExportTableName = keyof typeof exportTables;

/** The tables of the update stream, each written for every committed range (docs/analytics-export.md, "Exactly once"). */
export const updateTables = ['updates', 'events'] as const satisfies readonly ExportTableName[];

/** A value of a column: `bigint` for int64 and timestamp (µs), string lists as arrays. */
export type ExportValue = bigint | number | string | boolean | readonly string[] | null;

/** Rows of one table held column by column, in the order of {@link exportTables}. */
export class ExportColumns {
  readonly columns: ExportValue[][];
  rows = 0;
  /** Bytes of text in the rows (an estimate of the file before compression, for the MiB limit). */
  textBytes = 0;

  constructor(readonly table: ExportTableName) {
    this.columns = exportTables[table].map(() => []);
  }

  /** Appends a row: one value per column, in the table's order. */
  push(values: readonly ExportValue[]): void {
    const columns = this.columns;
    for (let i = 0; i < columns.length; i++) (columns[i] as ExportValue[]).push(values[i] ?? null);
    this.rows++;
  }
}
