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

/**
 * A value of a column: `bigint` for int64, timestamp (µs) and decimal (the unscaled value), string lists as
 * arrays; a typed template column (docs/analytics-export.md, "Typed tables") may also hold a struct (an
 * object by field name) or a list of any of these.
 */
export type ExportValue = bigint | number | string | boolean | null | readonly ExportValue[] | { readonly [field: string]: ExportValue };

/** One column of a table as the Parquet writer gets it: its name, statistics, and its schema elements (a group and its children for a nested column). */
export interface ExportColumnLayout {
  readonly name: string;
  readonly statistics: boolean;
  /** parquet-format `SchemaElement`s, depth first. */
  readonly schema: readonly Record<string, unknown>[];
}

/** A table as the Parquet writer gets it: its name, its columns, and the whole schema (the root, then each column's elements). */
export interface ExportTableLayout {
  readonly name: string;
  readonly columns: readonly ExportColumnLayout[];
  readonly schema: readonly Record<string, unknown>[];
}

/** The Parquet schema elements (parquet-format's `SchemaElement`) of one column of the fixed tables. */
export function columnSchema(column: ExportColumn): Record<string, unknown>[] {
  const repetition_type = column.nullable ? 'OPTIONAL' : 'REQUIRED';
  switch (column.type) {
    case 'int64':
      return [{ name: column.name, type: 'INT64', repetition_type }];
    case 'int32':
      return [{ name: column.name, type: 'INT32', repetition_type }];
    case 'bool':
      return [{ name: column.name, type: 'BOOLEAN', repetition_type }];
    case 'string':
    case 'json':
      // JSON text as UTF8 (a string column): hyparquet-writer's JSON type would serialize the text again, and
      // writes no JSON logical type without it (docs/analytics-export.md, "Columns")
      return [{ name: column.name, type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type }];
    case 'timestamp':
      return [{ name: column.name, type: 'INT64', converted_type: 'TIMESTAMP_MICROS', logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MICROS' }, repetition_type }];
    case 'strings':
      return [
        { name: column.name, repetition_type, num_children: 1, converted_type: 'LIST' },
        { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
        { name: 'element', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED' },
      ];
  }
}

/** A table layout of its columns: the root element, then the columns' elements in order. */
export function exportTableLayout(name: string, columns: readonly ExportColumnLayout[]): ExportTableLayout {
  return { name, columns, schema: [{ name: 'root', num_children: columns.length }, ...columns.flatMap((c) => c.schema)] };
}

const layouts = new Map<ExportTableName, ExportTableLayout>();

/** The layout of one of the fixed tables ({@link exportTables}). */
export function tableLayout(table: ExportTableName): ExportTableLayout {
  let layout = layouts.get(table);
  if (layout === undefined) {
    const columns: readonly ExportColumn[] = exportTables[table];
    layout = exportTableLayout(table, columns.map((c) => ({ name: c.name, statistics: c.statistics, schema: columnSchema(c) })));
    layouts.set(table, layout);
  }
  return layout;
}

/** Rows of one table held column by column, in the order of its layout. */
export class ExportColumns {
  readonly layout: ExportTableLayout;
  readonly columns: ExportValue[][];
  rows = 0;

  constructor(table: ExportTableName | ExportTableLayout) {
    this.layout = typeof table === 'string' ? tableLayout(table) : table;
    this.columns = this.layout.columns.map(() => []);
  }

  /** Appends a row: one value per column, in the table's order. */
  push(values: readonly ExportValue[]): void {
    const columns = this.columns;
    for (let i = 0; i < columns.length; i++) (columns[i] as ExportValue[]).push(values[i] ?? null);
    this.rows++;
  }
}
