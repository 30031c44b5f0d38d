import { ExportSink, type ExportSinkStatus } from '../../sinks/export/export-sink.js';
import { planSnapshotStart } from '../ingest/plan-snapshot-start.js';
import { startFromSnapshot } from '../ingest/start-from-snapshot.js';
import type { Logger } from '../log/logger.js';
import { readDarFiles } from '../options/read-dar-files.js';
import type { CliIo } from '../process/cli-io.js';
import type { ExitCode } from '../process/exit-code.js';
import { runStreamingCommand } from '../process/run-streaming-command.js';
import { drainIntoSink, type NewStreamStart } from '../sink/drain-into-sink.js';
import type { ExportOptions } from './export-options.js';
import { DEFAULT_FILE_MS, DEFAULT_FILE_ROWS } from './run-export-defaults.js';

function logStatus(logger: Logger, status: ExportSinkStatus): void {
  if (status.type === 'resumed') {
    if (status.removed.length > 0) logger.info({ removed: status.removed }, 'removed the files of an interrupted run');
  } else logger.debug({ path: status.path, rows: status.rows, bytes: status.bytes }, 'file written');
}

/**
 * `ledger-rx export`: writes the participant's updates to files for analytics — Parquet tables `updates` and
 * `events` (or, with `format` `ndjson-zstd`, the elements as the participant sent them) under
 * `<out>/<table>/record_date=YYYY-MM-DD/<first>-<last>.<ext>` — exactly once with the files as the only
 * checkpoint (`ExportSink`, docs/analytics-export.md), and resolves with the exit code.
 *
 * The read is `drainIntoSink`'s (source, filter, range, transport and stops as for `ingest`): a batch of
 * `batch` updates (or what `batchMs` gathered) is committed as one file per table and record date, and a
 * file is also closed at `fileMiB` MiB of element text. A restart resumes after the offset every table's
 * complete files reach, after deleting what a killed run left half done. A NEW export starts from the
 * active-contract snapshot with `fromAcs` (and with `from` `begin` on a pruned participant), as `ingest`
 * does (`planSnapshotStart`): the `active_contracts` table at its offset, then the updates after it.
 * With `dars` (`--dar`), each DAR's main package's templates get a typed table each (`template__<package-name>__
 * <Module>__<Entity>`, one column per payload field), fixed for the life of the export directory.
 * SIGINT/SIGTERM commit the open files and exit 0.
 */
export function runExport(options: ExportOptions, io: CliIo): Promise<ExitCode> {
  const settings = { logLevel: options.logLevel, stats: options.stats, activity: 'exporting', summary: 'exported', monitoring: options.monitoring, stream: options.out };
  return runStreamingCommand(io, settings, async (run) => {
    const { logger } = run;
    let sink: ExportSink | undefined;
    const dars = await readDarFiles(options.dars ?? []);
    const openSink = async () =>
      (sink = new ExportSink({
        dir: options.out,
        format: options.format,
        dars,
        maxFileRows: options.batch ?? DEFAULT_FILE_ROWS,
        maxFileBytes: (options.fileMiB ?? 64) * 1024 * 1024,
        onStatus: (status) => logStatus(logger, status),
      }));
    const startNewStream = async ({ client, range, bounds, updateFormat }: NewStreamStart) => {
      const start = await planSnapshotStart(options, range, bounds);
      if (start === undefined || sink === undefined) return undefined;
      const retry = options.maxRetries === undefined ? undefined : { maxAttempts: options.maxRetries };
      const context = { client, sink, updateFormat, transport: options.source.transport ?? 'auto', chunkSize: 10_000, retry, validate: options.validate ?? true, run } as const;
      return startFromSnapshot(start, context);
    };
    await drainIntoSink(options, io, run, openSink, { activity: 'exporting', defaultBatch: DEFAULT_FILE_ROWS, defaultBatchMs: DEFAULT_FILE_MS, startNewStream });
  });
}
