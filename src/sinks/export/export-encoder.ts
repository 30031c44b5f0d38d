import { exportTables, type ExportColumn, type ExportColumns, type ExportTableName } from './export-tables.js';
import { loadOptionalPackage } from './load-optional-package.js';

/** zstd level of Parquet pages and NDJSON files: zstd's default, fast with a good ratio (docs/analytics-export.md). */
const ZSTD_LEVEL = 3;

/** Compresses bytes with zstd (one frame). */
export type ZstdCompress = (bytes: Uint8Array) => Uint8Array;

/** A Parquet file written row group by row group (the active-contract snapshot: too large to hold at once). */
export interface ParquetFileStream {
  /** Appends the rows as one or more row groups (written to the file before it returns). */
  write(columns: ExportColumns): void;
  /** Writes the footer; the file is complete (not yet synced). */
  finish(): void;
}

/** Encodes export tables: built by {@link loadExportEncoder}. */
export interface ExportEncoder {
  /** A whole Parquet file (zstd pages) of the rows. */
  parquet(columns: ExportColumns): Uint8Array;
  /** A Parquet file of `table` written to `path` as rows come (see {@link ParquetFileStream}). */
  parquetStream(table: ExportTableName, path: string): ParquetFileStream;
  readonly zstd: ZstdCompress;
}

/** Loads `@toondepauw/node-zstd` (an optional peer dependency) and returns its level-3 compressor. */
export async function loadZstd(neededFor: string): Promise<ZstdCompress> {
  const { Encoder } = await loadOptionalPackage('@toondepauw/node-zstd', neededFor, () => import('@toondepauw/node-zstd'));
  const encoder = new Encoder(ZSTD_LEVEL);
  return (bytes) => encoder.encodeSync(Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
}

/** The Parquet schema elements (parquet-format's `SchemaElement`) of one column. */
function schemaOf(column: ExportColumn): Record<string, unknown>[] {
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

const schemas = new Map<ExportTableName, Record<string, unknown>[]>();
function tableSchema(table: ExportTableName): Record<string, unknown>[] {
  let schema = schemas.get(table);
  if (schema === undefined) {
    const columns: readonly ExportColumn[] = exportTables[table];
    schema = [{ name: 'root', num_children: columns.length }, ...columns.flatMap(schemaOf)];
    schemas.set(table, schema);
  }
  return schema;
}

/** Rows per row group: large groups compress better; a file of the default size is one or a few groups. */
const ROW_GROUP_ROWS = 100_000;

/**
 * Loads the Parquet writer (`hyparquet-writer`) and zstd (`@toondepauw/node-zstd`), both optional peer
 * dependencies, on first use; rejects with `PeerDependencyMissingError` naming the one that is missing. The files
 * have zstd-compressed pages, min/max statistics on the columns marked for them, and `created_by` ledger-rx.
 */
export async function loadExportEncoder(neededFor: string): Promise<ExportEncoder> {
  const [zstd, hyparquet] = await Promise.all([loadZstd(neededFor), loadOptionalPackage('hyparquet-writer', neededFor, () => import('hyparquet-writer'))]);
  const { ByteWriter, ParquetWriter, fileWriter } = hyparquet;
  type Options = ConstructorParameters<typeof ParquetWriter>[0];
  type WriteOptions = Parameters<InstanceType<typeof ParquetWriter>['write']>[0];
  const compressors = { ZSTD: zstd };
  const columnData = (columns: ExportColumns): WriteOptions['columnData'] =>
    exportTables[columns.table].map((column: ExportColumn, i: number) => {
      return { name: column.name, data: columns.columns[i] as unknown[], statistics: column.statistics } as WriteOptions['columnData'][number];
    });
  const newWriter = (writer: Options['writer'], table: ExportTableName) =>
    new ParquetWriter({ writer, schema: tableSchema(table) as unknown as Options['schema'], codec: 'ZSTD', compressors, createdBy: 'ledger-rx' });
  return {
    zstd,
    parquet(columns) {
      const out = new ByteWriter();
      const writer = newWriter(out, columns.table);
      if (columns.rows > 0) writer.write({ columnData: columnData(columns), rowGroupSize: ROW_GROUP_ROWS });
      writer.finish();
      return out.getBytes();
    },
    parquetStream(table, path) {
      const writer = newWriter(fileWriter(path), table);
      return {
        write: (columns) => {
          if (columns.rows > 0) void writer.write({ columnData: columnData(columns), rowGroupSize: ROW_GROUP_ROWS });
        },
        finish: () => void writer.finish(),
      };
    },
  };
}
