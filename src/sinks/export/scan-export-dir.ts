import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { parseExportFileName, TEMPORARY_PREFIX, type ExportFileRange, type ExportFormat } from './export-file-name.js';

/** A complete file found in an export directory. */
export interface ExportFile extends ExportFileRange {
  readonly table: string;
  readonly path: string;
}

/** What {@link scanExportDir} found. */
export interface ExportDirContents {
  /** Complete files of `format` in the update tables (`<table>/record_date=…/`). */
  readonly files: readonly ExportFile[];
  /** Complete snapshot files (`active_contracts/`). */
  readonly snapshots: readonly ExportFile[];
  /** Temporary files (`.tmp-…`) anywhere in the tables: left by a run that was killed. */
  readonly temporary: readonly string[];
}

async function entries(dir: string): Promise<Dirent[]> {
  try {
    return await readdir(dir, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/**
 * Lists the files of an export directory: for each of `tables`, the complete files of `format` in its
 * `record_date=…` partitions; the complete snapshot files of `active_contracts/`; and every temporary file
 * (name starting with `.tmp-`) in those directories. Other names are ignored. A missing directory is empty.
 */
export async function scanExportDir(dir: string, tables: readonly string[], format: ExportFormat): Promise<ExportDirContents> {
  const files: ExportFile[] = [];
  const snapshots: ExportFile[] = [];
  const temporary: string[] = [];
  const collect = async (table: string, folder: string, into: ExportFile[]) => {
    for (const entry of await entries(folder)) {
      if (!entry.isFile()) continue;
      const path = join(folder, entry.name);
      if (entry.name.startsWith(TEMPORARY_PREFIX)) temporary.push(path);
      else {
        const range = parseExportFileName(entry.name, format);
        if (range) into.push({ table, path, ...range });
      }
    }
  };
  for (const table of tables) {
    for (const partition of await entries(join(dir, table))) {
      if (partition.isDirectory() && partition.name.startsWith('record_date=')) await collect(table, join(dir, table, partition.name), files);
    }
  }
  await collect('active_contracts', join(dir, 'active_contracts'), snapshots);
  return { files, snapshots, temporary };
}
