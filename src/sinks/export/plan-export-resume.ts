import { ErrorCodes } from '../../errors/error-codes.js';
import { LedgerRxError } from '../../errors/ledger-rx-error.js';
import type { ExportDirContents, ExportFile } from './scan-export-dir.js';

/** Where an export resumes, and what to delete first: the outcome of {@link planExportResume}. */
export interface ExportResume {
  /** The offset the export has stored everything up to; `undefined`: nothing (a new export). */
  readonly position: number | undefined;
  /** Complete files past the position (a range that not every table had completed) and temporary files. */
  readonly remove: readonly string[];
}

/**
 * The exactly-once rule of the export, the files as the checkpoint (docs/analytics-export.md, "Exactly
 * once"). Every committed range has one file in EACH of `tables` (possibly with no rows), all named by the
 * same range, and a range counts only once all of them are complete. So the position is the MINIMUM over
 * the tables of the highest last offset of the table's complete files — the newest snapshot's offset
 * counts as a file of every table — and `undefined` when a table has none. Complete files of a range past
 * that position (a crash between the renames of the tables' files) and every temporary file (a crash
 * while writing) are to be removed; the read resumes after the position and writes them again.
 *
 * Throws `SINK_FAILED` when a file straddles the position (files that do not come from one export).
 */
export function planExportResume(contents: ExportDirContents, tables: readonly string[]): ExportResume {
  const base = contents.snapshots.reduce<number | undefined>((max, f) => (max === undefined || f.last > max ? f.last : max), undefined);
  let position: number | undefined;
  for (let i = 0; i < tables.length; i++) {
    let highest = base;
    for (const f of contents.files) if (f.table === tables[i] && (highest === undefined || f.last > highest)) highest = f.last;
    if (highest === undefined) {
      position = undefined;
      break;
    }
    position = i === 0 || position === undefined ? highest : Math.min(position, highest);
  }
  const beyond = (f: ExportFile) => position === undefined || f.first > position;
  const straddling = contents.files.find((f) => position !== undefined && f.first <= position && f.last > position);
  if (straddling) {
    throw new LedgerRxError(ErrorCodes.SINK_FAILED, `export file ${straddling.path} straddles the resume position ${position}: the directory holds files of another export`);
  }
  const stale = contents.snapshots.filter((f) => base !== undefined && f.last < base);
  return { position, remove: [...contents.files.filter(beyond).map((f) => f.path), ...stale.map((f) => f.path), ...contents.temporary] };
}
