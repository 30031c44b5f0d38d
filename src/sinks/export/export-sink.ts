import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Dar } from '../../daml/read-dar.js';
import { ErrorCodes } from '../../errors/error-codes.js';
import { LedgerRxError } from '../../errors/ledger-rx-error.js';
import type { JsGetActiveContractsResponse } from '../../schemas/active-contracts.js';
import type { JsGetUpdatesResponse } from '../../schemas/updates.js';
import { wireJson } from '../../updates/wire-json.js';
import { takeDataDirLock } from '../postgres/data-dir-lock.js';
import type { LedgerSink, SinkCommit, SinkPosition } from '../ledger-sink.js';
import type { SnapshotBootstrap, SnapshotSink } from '../snapshot-sink.js';
import { DurableFiles } from './durable-files.js';
import { loadExportEncoder, loadZstd, type ExportEncoder, type ZstdCompress } from './export-encoder.js';
import { exportFileName, type ExportFormat } from './export-file-name.js';
import { activeContractRow, updateExportRows } from './export-rows.js';
import { ExportColumns, updateTables, type ExportTableLayout, type ExportTableName, type ExportValue } from './export-tables.js';
import { planExportResume } from './plan-export-resume.js';
import { utcDate } from './record-date.js';
import { scanExportDir } from './scan-export-dir.js';
import { TYPED_TABLE_PREFIX, typedTemplateTables, type TypedTemplateTable } from './typed-template-tables.js';

/** Options of {@link ExportSink}. */
export interface ExportSinkOptions {
  /** The export directory (created when missing). One exporter at a time: the sink locks it (`ledger-rx.lock`). */
  readonly dir: string;
  /** `parquet` (default): tables `updates` and `events`; `ndjson-zstd`: the elements as sent, one per line, in zstd (table `updates`). */
  readonly format?: ExportFormat | undefined;
  /** A file is closed after this many updates, even inside a unit. Default 100 000. */
  readonly maxFileRows?: number | undefined;
  /** A file is closed once its updates' JSON text reaches this many bytes, even inside a unit. Default 64 MiB. */
  readonly maxFileBytes?: number | undefined;
  /**
   * Parquet only: DARs (`readDarFile`) whose main packages' templates get a typed table each,
   * `template__<package-name>__<Module>__<Entity>`, one column per payload field (docs/analytics-export.md,
   * "Typed tables"). The set of tables is fixed when an export starts: a directory that holds committed
   * files is continued only with DARs that give the same set of typed tables.
   */
  readonly dars?: readonly Dar[] | undefined;
  /** Called with what the sink did on start and on every file written. */
  readonly onStatus?: ((status: ExportSinkStatus) => void) | undefined;
}

/** What {@link ExportSink} reports through `onStatus`. */
export type ExportSinkStatus =
  | { readonly type: 'resumed'; readonly position: number | undefined; readonly removed: readonly string[] }
  | { readonly type: 'file-written'; readonly path: string; readonly rows: number; readonly bytes: number };

/** The updates of one offset range with one record date, on its way to one file per table. */
interface OpenRange {
  readonly date: string;
  readonly first: number;
  last: number;
  updates: number;
  textBytes: number;
  readonly tables: ExportColumns[];
  readonly lines: string[];
}

const NEEDED_FOR = 'the export to Parquet or NDJSON+zstd';

/**
 * A {@link LedgerSink} (and {@link SnapshotSink}) that writes the update stream to files for analytics,
 * exactly once with the files as the only checkpoint (docs/analytics-export.md):
 * `<dir>/<table>/record_date=YYYY-MM-DD/<first>-<last>.parquet` (or `.ndjson.zst`), offsets zero-padded.
 *
 * - `start` takes the directory's lock, scans it and resumes after the highest offset that EVERY table's
 *   complete files reach (`planExportResume`), deleting the temporary files of a killed run and the files
 *   of a range not every table completed; resolves with that position (its synchronizer times are empty),
 *   or `undefined` for an empty directory.
 * - `write` maps each update to rows (`updateExportRows`; checkpoints add none) and groups consecutive updates
 *   with the same record date (UTC) into a range; a range is closed at a new date, at `maxFileRows` or at
 *   `maxFileBytes`, and a closed range is written at once: one file per table, each to a temporary name,
 *   fsynced, then renamed (the tables in order: `updates`, the typed template tables, `events` last). `commit` closes and writes the open range and
 *   resolves once the renames' directories are fsynced: the range counts from then on, and a crash before
 *   leaves nothing that counts. A unit that spans dates or limits is several ranges, each complete on its
 *   own. Commits resolve in order; after a failure every later call rejects.
 * - `bootstrap(offset, chunks)` (a new export only) writes the active-contract snapshot to
 *   `<dir>/active_contracts/<offset>-<offset>.parquet` (streamed row group by row group), renames it when
 *   complete; the updates after `offset` follow.
 * - with `dars`, each created (or assigned) event of a template of a DAR's main package is also a row of its
 *   typed table (`typedTemplateTables`), which gets a file for every range like the other tables; `start`
 *   rejects with `SINK_FAILED` when the directory's committed typed tables are not the DARs' (the set is
 *   fixed when an export starts), and `write` rejects with `SINK_FAILED` on a payload the DAR does not describe.
 * - `close` releases the lock; an open range is dropped.
 *
 * The Parquet writer (`hyparquet-writer`) and zstd (`@toondepauw/node-zstd`) are optional peer
 * dependencies, loaded by `start`; a missing one rejects with `PeerDependencyMissingError` naming it.
 */
export class ExportSink implements LedgerSink, SnapshotSink {
  private readonly options: ExportSinkOptions;
  private readonly format: ExportFormat;
  private readonly tables: readonly string[];
  private readonly layouts: readonly (ExportTableName | ExportTableLayout)[];
  private readonly typed: ReadonlyMap<string, { readonly index: number; readonly table: TypedTemplateTable }>;
  private readonly files = new DurableFiles();
  private encoder: ExportEncoder | undefined;
  private zstd: ZstdCompress | undefined;
  private release: (() => Promise<void>) | undefined;
  private open: OpenRange | undefined;
  private closed: OpenRange[] = [];
  private lastDate = '1970-01-01';
  private queue: Promise<unknown> = Promise.resolve();
  private failure: { error: unknown } | undefined;
  private unitUpdates = 0;
  private unitBytes = 0;

  constructor(options: ExportSinkOptions) {
    this.options = options;
    this.format = options.format ?? 'parquet';
    const typed = options.dars === undefined || options.dars.length === 0 ? [] : typedTemplateTables(options.dars);
    if (typed.length > 0 && this.format !== 'parquet') {
      throw new LedgerRxError(ErrorCodes.INVALID_CLIENT_ARGUMENT, 'typed template tables (dars) are Parquet tables: they need the parquet format, not ndjson-zstd');
    }
    // the typed tables between updates and events: `events` stays the last file of a range (docs/analytics-export.md)
    this.layouts = this.format === 'parquet' ? [updateTables[0], ...typed.map((t) => t.layout), updateTables[1]] : ['updates'];
    this.tables = this.layouts.map((t) => (typeof t === 'string' ? t : t.name));
    this.typed = new Map(typed.map((table, i) => [table.templateId, { index: i + 1, table }]));
  }

  async start(signal?: AbortSignal): Promise<SinkPosition | undefined> {
    const { dir } = this.options;
    await this.files.ensureDir(dir);
    this.release = await takeDataDirLock(dir, 0, signal);
    if (this.format === 'parquet') this.encoder = await loadExportEncoder(NEEDED_FOR);
    this.zstd = this.encoder?.zstd ?? (await loadZstd(NEEDED_FOR));
    const present = this.format === 'parquet' ? await typedTableDirs(dir) : [];
    const contents = await scanExportDir(dir, [...new Set([...this.tables, ...present])], this.format);
    this.checkTypedTables(contents.files);
    const plan = planExportResume(contents, this.tables);
    for (const path of plan.remove) await this.files.remove(path);
    await this.files.sync();
    this.options.onStatus?.({ type: 'resumed', position: plan.position, removed: plan.remove });
    return plan.position === undefined ? undefined : { offset: plan.position, synchronizerTimes: [] };
  }

  write(elements: readonly JsGetUpdatesResponse[]): Promise<void> {
    return this.enqueue(async () => {
      const maxRows = this.options.maxFileRows ?? 100_000;
      const maxBytes = this.options.maxFileBytes ?? 64 * 1024 * 1024;
      for (const element of elements) {
        const rows = updateExportRows(element);
        if (rows === undefined) continue;
        const date = rows.recordTime === undefined ? this.lastDate : utcDate(rows.recordTime);
        this.lastDate = date;
        const text = this.format === 'ndjson-zstd' || maxBytes !== Infinity ? wireJson(element) : '';
        let range = this.open;
        if (range !== undefined && (range.date !== date || range.updates >= maxRows || range.textBytes >= maxBytes)) {
          this.closed.push(range);
          range = undefined;
        }
        if (range === undefined) {
          range = { date, first: rows.offset, last: rows.offset, updates: 0, textBytes: 0, tables: this.layouts.map((t) => new ExportColumns(t)), lines: [] };
          this.open = range;
        }
        range.last = rows.offset;
        range.updates++;
        range.textBytes += text.length;
        this.unitUpdates++;
        this.unitBytes += text.length;
        if (this.format === 'ndjson-zstd') range.lines.push(text);
        else {
          const tables = range.tables;
          (tables[0] as ExportColumns).push(rows.update);
          const events = tables[tables.length - 1] as ExportColumns;
          for (const event of rows.events) events.push(event);
          if (this.typed.size > 0) {
            for (const { event, argument } of rows.created) {
              const typed = this.typed.get(event[5] as string);
              // [offset, update_id, node_id, kind, contract_id, package_id, record_time] of the events row
              if (typed) (tables[typed.index] as ExportColumns).push(typed.table.row([event[0], event[1], event[2], event[3], event[4], event[6], event[20]] as ExportValue[], argument));
            }
          }
        }
      }
      const closed = this.closed;
      this.closed = [];
      for (const range of closed) await this.writeRange(range);
    });
  }

  commit(position: SinkPosition): Promise<SinkCommit> {
    void position; // the files are the position: a range counts once its files are renamed and synced
    return this.enqueue(async () => {
      const range = this.open;
      this.open = undefined;
      if (range !== undefined) await this.writeRange(range);
      await this.files.sync();
      const commit: SinkCommit = { applied: true, updates: this.unitUpdates, bytes: this.unitBytes };
      this.unitUpdates = 0;
      this.unitBytes = 0;
      return commit;
    });
  }

  async bootstrap(offset: number, chunks: AsyncIterable<readonly JsGetActiveContractsResponse[]>): Promise<SnapshotBootstrap> {
    return this.enqueue(async () => {
      const dir = join(this.options.dir, 'active_contracts');
      await this.files.ensureDir(dir);
      const path = join(dir, exportFileName({ first: offset, last: offset }, this.format));
      const temporary = this.files.temporaryPath(path);
      let entries = 0;
      let contracts = 0;
      let incompleteUnassigned = 0;
      if (this.encoder !== undefined) {
        const stream = this.encoder.parquetStream('active_contracts', temporary);
        for await (const chunk of chunks) {
          const columns = new ExportColumns('active_contracts');
          for (const entry of chunk) {
            entries++;
            const row = activeContractRow(offset, entry);
            if (row === undefined) continue;
            columns.push(row);
            if (row[1] === 'incomplete_unassigned') incompleteUnassigned++;
            else contracts++;
          }
          stream.write(columns);
        }
        stream.finish();
        await this.files.syncFile(temporary);
        await this.files.publish(temporary, path);
      } else {
        // NDJSON+zstd: one zstd frame per chunk (concatenated frames are one valid zstd stream)
        const frames: Uint8Array[] = [];
        for await (const chunk of chunks) {
          const lines: string[] = [];
          for (const entry of chunk) {
            entries++;
            const row = activeContractRow(offset, entry);
            if (row !== undefined) {
              if (row[1] === 'incomplete_unassigned') incompleteUnassigned++;
              else contracts++;
            }
            lines.push(JSON.stringify(entry));
          }
          if (lines.length > 0) frames.push((this.zstd as ZstdCompress)(Buffer.from(lines.join('\n') + '\n')));
        }
        await this.files.publish(await this.files.stage(path, frames), path);
      }
      await this.files.sync();
      this.options.onStatus?.({ type: 'file-written', path, rows: contracts + incompleteUnassigned, bytes: 0 });
      return { entries, contracts, incompleteUnassigned };
    });
  }

  async close(): Promise<void> {
    this.open = undefined;
    this.closed = [];
    await this.queue.catch(() => undefined);
    await this.release?.();
    this.release = undefined;
  }

  /**
   * The typed tables are fixed when an export starts (docs/analytics-export.md, "Typed tables"): once `events`
   * holds a complete file (so some range was written in every table of that run: `events` is written last),
   * the typed tables that hold files must be exactly this sink's; otherwise a new table would have no files
   * for the ranges before (and the resume rule would restart the whole export) and a dropped one would get
   * gaps. Throws `SINK_FAILED` naming the difference.
   */
  private checkTypedTables(files: readonly { readonly table: string }[]): void {
    if (this.format !== 'parquet' || !files.some((f) => f.table === 'events')) return;
    const present = new Set(files.filter((f) => f.table.startsWith(TYPED_TABLE_PREFIX)).map((f) => f.table));
    const wanted = new Set(this.tables.filter((t) => t.startsWith(TYPED_TABLE_PREFIX)));
    const missing = [...wanted].filter((t) => !present.has(t));
    const extra = [...present].filter((t) => !wanted.has(t));
    if (missing.length === 0 && extra.length === 0) return;
    const diff = [missing.length > 0 ? `the DARs add ${missing.join(', ')}` : '', extra.length > 0 ? `the directory has ${extra.join(', ')}, which the DARs do not declare` : '']
      .filter((s) => s !== '')
      .join('; ');
    throw new LedgerRxError(
      ErrorCodes.SINK_FAILED,
      `the export in ${this.options.dir} was started with other typed tables (${diff}): the typed tables are fixed when an export starts; give the same --dar files, or export to a new directory`,
    );
  }

  /** Writes one range: a file per table, each staged then renamed; `events` (the last table) completes the range. */
  private async writeRange(range: OpenRange): Promise<void> {
    const name = exportFileName({ first: range.first, last: range.last }, this.format);
    for (let i = 0; i < this.tables.length; i++) {
      const table = this.tables[i] as string;
      const path = join(this.options.dir, table, `record_date=${range.date}`, name);
      const bytes =
        this.format === 'parquet'
          ? (this.encoder as ExportEncoder).parquet(range.tables[i] as ExportColumns)
          : (this.zstd as ZstdCompress)(Buffer.from(range.lines.join('\n') + '\n'));
      await this.files.publish(await this.files.stage(path, [bytes]), path);
      this.options.onStatus?.({ type: 'file-written', path, rows: this.format === 'parquet' ? (range.tables[i] as ExportColumns).rows : range.updates, bytes: bytes.length });
    }
  }

  /** Runs `work` after everything queued before; after a failure, rejects with it. */
  private enqueue<T>(work: () => Promise<T>): Promise<T> {
    const result = this.queue.then(async () => {
      if (this.failure) throw this.failure.error;
      try {
        return await work();
      } catch (error) {
        this.failure ??= { error };
        throw error;
      }
    });
    this.queue = result.catch(() => undefined);
    return result;
  }
}

/** The names of the typed template tables (`template__…` directories) of an export directory. */
async function typedTableDirs(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir, { withFileTypes: true })).filter((e) => e.isDirectory() && e.name.startsWith(TYPED_TABLE_PREFIX)).map((e) => e.name);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}
