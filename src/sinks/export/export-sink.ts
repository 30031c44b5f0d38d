import { join } from 'node:path';
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
import { ExportColumns, updateTables } from './export-tables.js';
import { planExportResume } from './plan-export-resume.js';
import { utcDate } from './record-date.js';
import { scanExportDir } from './scan-export-dir.js';

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
 *   fsynced, then renamed (the tables in order, `events` last). `commit` closes and writes the open range and
 *   resolves once the renames' directories are fsynced: the range counts from then on, and a crash before
 *   leaves nothing that counts. A unit that spans dates or limits is several ranges, each complete on its
 *   own. Commits resolve in order; after a failure every later call rejects.
 * - `bootstrap(offset, chunks)` (a new export only) writes the active-contract snapshot to
 *   `<dir>/active_contracts/<offset>-<offset>.parquet` (streamed row group by row group), renames it when
 *   complete; the updates after `offset` follow.
 * - `close` releases the lock; an open range is dropped.
 *
 * The Parquet writer (`hyparquet-writer`) and zstd (`@toondepauw/node-zstd`) are optional peer
 * dependencies, loaded by `start`; a missing one rejects with `PeerDependencyMissingError` naming it.
 */
export class ExportSink implements LedgerSink, SnapshotSink {
  private readonly options: ExportSinkOptions;
  private readonly format: ExportFormat;
  private readonly tables: readonly ('updates' | 'events')[];
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
    this.tables = this.format === 'parquet' ? updateTables : ['updates'];
  }

  async start(signal?: AbortSignal): Promise<SinkPosition | undefined> {
    const { dir } = this.options;
    await this.files.ensureDir(dir);
    this.release = await takeDataDirLock(dir, 0, signal);
    if (this.format === 'parquet') this.encoder = await loadExportEncoder(NEEDED_FOR);
    this.zstd = this.encoder?.zstd ?? (await loadZstd(NEEDED_FOR));
    const plan = planExportResume(await scanExportDir(dir, this.tables, this.format), this.tables);
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
          range = { date, first: rows.offset, last: rows.offset, updates: 0, textBytes: 0, tables: this.tables.map((t) => new ExportColumns(t)), lines: [] };
          this.open = range;
        }
        range.last = rows.offset;
        range.updates++;
        range.textBytes += text.length;
        this.unitUpdates++;
        this.unitBytes += text.length;
        if (this.format === 'ndjson-zstd') range.lines.push(text);
        else {
          const [updates, events] = range.tables as [ExportColumns, ExportColumns];
          updates.push(rows.update);
          for (const event of rows.events) events.push(event);
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
