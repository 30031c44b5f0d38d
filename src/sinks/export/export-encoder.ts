import { tableLayout, type ExportColumns, type ExportTableLayout, type ExportTableName } from './export-tables.js';
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
  parquetStream(table: ExportTableName | ExportTableLayout, path: string): ParquetFileStream;
  readonly zstd: ZstdCompress;
}

/** Loads `@toondepauw/node-zstd` (an optional peer dependency) and returns its level-3 compressor. */
export async function loadZstd(neededFor: string): Promise<ZstdCompress> {
  const { Encoder } = await loadOptionalPackage('@toondepauw/node-zstd', neededFor, () => import('@toondepauw/node-zstd'));
  const encoder = new Encoder(ZSTD_LEVEL);
  return (bytes) => encoder.encodeSync(Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
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
    columns.layout.columns.map((column, i) => {
      return { name: column.name, data: columns.columns[i] as unknown[], statistics: column.statistics } as WriteOptions['columnData'][number];
    });
  const newWriter = (writer: Options['writer'], layout: ExportTableLayout) =>
    new ParquetWriter({ writer, schema: layout.schema as unknown as Options['schema'], codec: 'ZSTD', compressors, createdBy: 'ledger-rx' });
  return {
    zstd,
    parquet(columns) {
      const out = new ByteWriter();
      const writer = newWriter(out, columns.layout);
      if (columns.rows > 0) writer.write({ columnData: columnData(columns), rowGroupSize: ROW_GROUP_ROWS });
      writer.finish();
      return out.getBytes();
    },
    parquetStream(table, path) {
      const writer = newWriter(fileWriter(path), typeof table === 'string' ? tableLayout(table) : table);
      return {
        write: (columns) => {
          if (columns.rows > 0) void writer.write({ columnData: columnData(columns), rowGroupSize: ROW_GROUP_ROWS });
        },
        finish: () => void writer.finish(),
      };
    },
  };
}
