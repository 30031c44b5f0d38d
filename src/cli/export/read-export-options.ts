import { exportExtensions, type ExportFormat } from '../../sinks/export/export-file-name.js';
import { flagValues } from '../options/flag-values.js';
import { UsageError } from '../options/usage-error.js';
import { readSinkReadOptions } from '../sink/read-sink-read-options.js';
import type { ExportOptions } from './export-options.js';

/**
 * Turns the commander values of `ledger-rx export` into {@link ExportOptions}; throws `UsageError` (exit 2)
 * for a missing `--out`, an unknown `--format`, a malformed number, `--at` without `--from acs`, or `--dar` with `--format ndjson-zstd`
 * (`--from acs` is read here, as for `ingest`).
 */
export function readExportOptions(values: Readonly<Record<string, unknown>>): ExportOptions {
  const { str, int } = flagValues(values);
  const out = str('out');
  if (!out) throw new UsageError('give --out DIR: the directory of the exported files (created if missing)');
  const format = (str('format') ?? 'parquet').trim().toLowerCase();
  if (!(format in exportExtensions)) throw new UsageError(`--format must be ${Object.keys(exportExtensions).join(' or ')}, got '${format}'`);
  const fromAcs = str('from')?.trim().toLowerCase() === 'acs';
  const at = int('at', '--at', 0);
  if (at !== undefined && !fromAcs) throw new UsageError('--at OFFSET is the offset of the active-contract snapshot: give it with --from acs');
  const dars = Array.isArray(values['dar']) ? (values['dar'] as unknown[]).filter((d): d is string => typeof d === 'string' && d !== '') : [];
  if (dars.length > 0 && format !== 'parquet') throw new UsageError('--dar FILE adds typed Parquet tables: it needs --format parquet');
  return {
    ...readSinkReadOptions(fromAcs ? { ...values, from: undefined } : values),
    out,
    format: format as ExportFormat,
    fileMiB: int('fileMib', '--file-mib', 1),
    fromAcs,
    at,
    dars,
  };
}
