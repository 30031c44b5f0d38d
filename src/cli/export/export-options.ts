import type { ExportFormat } from '../../sinks/export/export-file-name.js';
import type { SinkReadOptions } from '../sink/sink-read-options.js';

/**
 * Everything `ledger-rx export` does, as options of `runExport`. `batch` is the rows (updates) per file
 * (default 20 000) and `batchMs` the longest a file stays open after its first update (default 60 000 ms):
 * each batch is committed as one file per table and record date.
 */
export interface ExportOptions extends SinkReadOptions {
  /** The export directory. */
  readonly out: string;
  /** Default `parquet`. */
  readonly format?: ExportFormat | undefined;
  /** A file is closed once its updates' JSON text reaches this many MiB. Default 64. */
  readonly fileMiB?: number | undefined;
  /** `--from acs`: a new export starts with the active-contract snapshot (at `at`, else the ledger end). */
  readonly fromAcs?: boolean | undefined;
  /** `--at OFFSET` (only with `fromAcs`). */
  readonly at?: number | undefined;
  /** `--dar FILE` (repeatable, Parquet only): a typed table per template of each DAR's main package (docs/analytics-export.md, "Typed tables"). */
  readonly dars?: readonly string[] | undefined;
}
