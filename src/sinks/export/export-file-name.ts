/** The digits of an offset in a file name: every offset the library handles is a safe integer (at most 16 digits). */
export const OFFSET_DIGITS = 16;

/** The extension of each export format's complete files. */
export const exportExtensions = { parquet: '.parquet', 'ndjson-zstd': '.ndjson.zst' } as const;

/** A file format of the export. */
export type ExportFormat = keyof typeof exportExtensions;

/** What a complete export file's name says: the offsets of its first and last rows. */
export interface ExportFileRange {
  readonly first: number;
  readonly last: number;
}

/**
 * The name of a complete export file: `<first>-<last><extension>`, each offset zero-padded to
 * {@link OFFSET_DIGITS} digits so that names sort as their offsets do (docs/analytics-export.md, "Layout").
 */
export function exportFileName(range: ExportFileRange, format: ExportFormat): string {
  return `${String(range.first).padStart(OFFSET_DIGITS, '0')}-${String(range.last).padStart(OFFSET_DIGITS, '0')}${exportExtensions[format]}`;
}

const pattern = /^(\d+)-(\d+)(\.parquet|\.ndjson\.zst)$/;

/**
 * The range of a complete export file of `format` named by {@link exportFileName} (any number of digits is
 * accepted), or `undefined` for any other name (a temporary file, another format's file, a stranger's file).
 */
export function parseExportFileName(name: string, format: ExportFormat): ExportFileRange | undefined {
  const m = pattern.exec(name);
  if (!m || m[3] !== exportExtensions[format]) return undefined;
  const first = Number(m[1]);
  const last = Number(m[2]);
  if (!Number.isSafeInteger(first) || !Number.isSafeInteger(last) || last < first) return undefined;
  return { first, last };
}

/** The prefix of every temporary file the export writes (a file being written, renamed once complete). */
export const TEMPORARY_PREFIX = '.tmp-';
