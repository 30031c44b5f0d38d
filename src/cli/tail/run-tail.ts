import { lastValueFrom, takeUntil } from 'rxjs';
import { checkCheckpointFile } from '../checkpoint/check-checkpoint-file.js';
import { flushBeforeSave } from '../checkpoint/flush-before-save.js';
import { openCheckpointStore } from '../checkpoint/open-checkpoint-store.js';
import { buildUpdateFormat } from '../options/build-update-format.js';
import { chooseOutputFormat } from '../output/choose-output-format.js';
import { NdjsonWriter } from '../output/ndjson-writer.js';
import type { UpdateWriter } from '../output/update-writer.js';
import type { TerminalView } from '../pretty/terminal-view.js';
import type { CliIo } from '../process/cli-io.js';
import type { ExitCode } from '../process/exit-code.js';
import { runStreamingCommand } from '../process/run-streaming-command.js';
import type { StreamingRun } from '../process/streaming-run.js';
import type { StatusSurface } from '../report/status-surface.js';
import { firstContact } from '../source/first-contact.js';
import { ledgerBounds } from '../source/ledger-bounds.js';
import { openRunSource } from '../source/open-run-source.js';
import { resolveReadRange } from '../source/resolve-read-range.js';
import { checkTailOptions } from './check-tail-options.js';
import { openTailOutput } from './open-tail-output.js';
import { openTailRead } from './open-tail-read.js';
import { planTailRead } from './plan-tail-read.js';
import { TailDelivery } from './tail-delivery.js';
import type { TailOptions } from './tail-options.js';
import { takeUpdates } from './take-updates.js';
import { wantsStatusLine } from './wants-status-line.js';

/**
 * `ledger-rx tail`: writes the participant's updates as NDJSON (one element per line, as the server sent
 * it) to `options.out` or `io.stdout`, and resolves with the exit code (it never calls `process.exit`).
 *
 * - Range (see `resolveReadRange`): after `from` (default `begin`: the participant's pruning boundary, so
 *   a pruned participant serves what it still has; `end` = only new updates) up to `to` (inclusive; `end` =
 *   the ledger end at start), or forever. With `descending`: newest first, from `to` (default: the ledger
 *   end) down to `from`, at most `limit` updates ("the newest N"). Without it, `limit` stops after N
 *   updates. A `from` after the ledger end (and, descending, a `to` after it) is bad usage (exit 2). The
 *   start-up requests (ledger end, pruning boundary) are retried like the read.
 * - Checkpoint (`checkpointFile`, or `checkpointPg` + `streamName`): the file's directory is checked first
 *   (exit 2 when the checkpoint could not be saved there). The read resumes after the stored offset (`from`
 *   only applies to a new stream); the offset is saved only after the lines up to it were written, flushed
 *   and fsynced, every `checkpointEvery` elements / `checkpointEveryMs`, and at the end. An element counts
 *   as delivered once its line is written, so the final checkpoint covers every line written.
 * - Output file with a checkpoint (`out` + a checkpoint): appended to, after cutting off a torn last line;
 *   the read resumes after the greater of the checkpoint and the offset of the file's last complete line,
 *   so even after a `kill -9` between two saves nothing is written twice: no gap, no duplicate.
 * - Output to stdout (a pipe, a terminal) with a checkpoint: at least once — after a `kill -9`, the lines
 *   written since the last save are written again by the next run (nothing the checkpoint covers is).
 * - Backpressure: a full output buffer pauses the read (the next page is requested once it drained).
 * - SIGINT/SIGTERM, at any moment (also during the start-up): the element in hand is finished, the output
 *   and the checkpoint are flushed, exit 0; nothing more is written. A stop during the start-up abandons it
 *   at once and writes nothing.
 * - Monitoring (`monitoring.metricsPort`): `/metrics`, `/healthz` and `/readyz` from the start (see
 *   `startDaemonMonitor`), checkpoint saves included; a port that cannot be bound exits 1.
 * - stderr: a progress line when stderr is a terminal and the data does not go to the same terminal (or
 *   with `progress`), JSON-lines logs, the error description, and with `stats` a JSON summary line.
 *
 * Exit codes: 0 done or stopped; 1 local failure (file, checkpoint store, database); 2 bad usage; 3
 * non-retryable server error (a pruned start prints the earliest available offset); 4 retries exhausted. A
 * closed stdout (EPIPE) ends quietly with 0.
 */
export async function runTail(options: TailOptions, io: CliIo): Promise<ExitCode> {
  const format = chooseOutputFormat(options.format, { stdoutIsTTY: io.stdoutIsTTY === true, out: options.out });
  // the terminal libraries load only for the human view
  const view = format === 'pretty' ? (await import('../pretty/terminal-view.js')).terminalView(io) : undefined;
  const settings = {
    logLevel: options.logLevel,
    stats: options.stats,
    activity: 'the read',
    monitoring: options.monitoring,
    stream: options.streamName,
    logPaint: view?.logPaint,
  };
  return runStreamingCommand(io, settings, (run) => tail(options, io, run, view));
}

/** The work of {@link runTail}, inside the shutdown sequence of `runStreamingCommand`; `view`: the human view. */
async function tail(options: TailOptions, io: CliIo, run: StreamingRun, view: TerminalView | undefined): Promise<void> {
  const { logger, stops } = run;
  checkTailOptions(options);
  const updateFormat = buildUpdateFormat(options.filter);
  if (options.checkpointFile !== undefined) await checkCheckpointFile(options.checkpointFile);
  const source = await openRunSource(run, io, options.source, options.validate ?? true);
  const client = source.client;
  const checkpoints = await stops.race(openCheckpointStore(options.checkpointFile, options.checkpointPg, options.streamName), (late) => late?.close());
  if (checkpoints) run.release(() => checkpoints.close());
  const retry = options.maxRetries === undefined ? undefined : { maxAttempts: options.maxRetries };
  const bounds = ledgerBounds(client, { retry, onStatus: run.onStatus, signal: stops.signal, firstContact: firstContact(options.source, source) });
  const range = await resolveReadRange(options, bounds, logger, 'reading');
  await bounds.reach();
  stops.throwIfStopped();

  const output = await openTailOutput(options.out, io.stdout, checkpoints?.store, logger);
  run.release(() => output.target.close());
  const target = output.target;
  stops.throwIfStopped();

  const toStdout = options.out === undefined || options.out === '-';
  const live: { writer?: UpdateWriter; position?: () => number | undefined } = {}; // filled in below
  let surface: StatusSurface | undefined;
  if (wantsStatusLine({ flag: options.progress, stderrIsTTY: io.stderrIsTTY, stdoutIsTTY: io.stdoutIsTTY === true, toStdout, pretty: view !== undefined })) {
    surface = run.showProgress(
      () => ({ count: live.writer?.count ?? 0, lastOffset: live.position?.() }),
      () => client.ledgerEnd().then((e) => e.offset ?? 0),
      view ? { style: view.statusStyle } : {},
    );
  }
  const sync = () => target.sync();
  const writer = view ? view.updateWriter(target.stream, sync, toStdout && io.stdoutIsTTY === true ? surface : undefined, toStdout) : new NdjsonWriter(target.stream, sync);
  live.writer = writer;
  run.watchOutput(() => writer.error);

  const store = output.store;
  const delivery = new TailDelivery(writer, {
    descending: options.descending === true,
    includeCheckpoints: options.includeCheckpoints === true,
    checkpoint: store && {
      store: flushBeforeSave(run.monitor.instrumentCheckpointStore(store), () => writer.flush()),
      every: options.checkpointEvery ?? 100,
      everyMs: options.checkpointEveryMs ?? 1_000,
    },
  });
  run.tally(() => ({ count: writer.count, bytes: writer.bytes, firstOffset: delivery.firstOffset, lastOffset: delivery.lastOffset }));
  live.position = () => delivery.position;

  const updates$ = openTailRead(client, planTailRead(options, range), {
    updateFormat,
    store,
    handler: delivery.handler,
    onStatus: run.onStatus,
    validate: options.validate ?? true,
    retry,
    transport: options.source.transport,
  });
  if (updates$) {
    if (checkpoints) logger.info({ checkpoint: checkpoints.description }, 'resuming from the checkpoint, if any');
    try {
      await lastValueFrom(updates$.pipe(takeUpdates(options.limit), takeUntil(stops.stop$), takeUntil(delivery.failure$)), { defaultValue: undefined });
    } catch (error) {
      await delivery.abandon(error);
      throw error;
    }
    await delivery.finish();
  }
  await writer.flush();
}
