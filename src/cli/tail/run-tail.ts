import { Subject, identity, lastValueFrom, takeUntil, takeWhile, type Observable, type ObservableInput } from 'rxjs';
import { readDescending } from '../../operators/read-descending.js';
import { tailUpdates } from '../../operators/tail-updates.js';
import { trackCheckpoint } from '../../operators/track-checkpoint.js';
import type { JsGetUpdatesResponse } from '../../schemas/updates.js';
import { updateOffset } from '../../streams/update-offset.js';
import { buildUpdateFormat } from '../options/build-update-format.js';
import { checkCheckpointFile } from '../checkpoint/check-checkpoint-file.js';
import type { CliIo } from '../process/cli-io.js';
import { computeRunStats } from '../report/compute-run-stats.js';
import { createCommandLogger } from '../log/create-command-logger.js';
import { describeError } from '../process/describe-error.js';
import { exitCodeFor } from '../process/exit-code-for.js';
import { ExitCode } from '../process/exit-code.js';
import { flushBeforeSave } from '../checkpoint/flush-before-save.js';
import { isOffsetCheckpoint } from '../../streams/is-offset-checkpoint.js';
import { lastLineOffset } from '../output/last-line-offset.js';
import { ledgerBounds } from '../source/ledger-bounds.js';
import type { LedgerSource } from '../source/ledger-source.js';
import { NdjsonWriter } from '../output/ndjson-writer.js';
import { openCheckpointStore, type OpenedCheckpointStore } from '../checkpoint/open-checkpoint-store.js';
import { openLedgerSource } from '../source/open-ledger-source.js';
import { openOutput } from '../output/open-output.js';
import type { OutputTarget } from '../output/output-target.js';
import type { CheckpointStore } from '../../operators/checkpoint.js';
import { ProgressLine } from '../report/progress-line.js';
import { resolveReadRange } from '../source/resolve-read-range.js';
import { resumeAfterOutput } from '../checkpoint/resume-after-output.js';
import { statusLogger } from '../log/status-logger.js';
import { listenForStopSignals } from '../process/listen-for-stop-signals.js';
import { StopRequested } from '../process/stop-requested.js';
import { UsageError } from '../options/usage-error.js';
import type { TailOptions } from './tail-options.js';

const none: ObservableInput<unknown> = [];

function checkOptions(o: TailOptions): void {
  if (o.checkpointFile !== undefined && o.checkpointPg !== undefined) throw new UsageError('give either --checkpoint or --checkpoint-pg, not both');
  if (o.checkpointPg !== undefined && !o.streamName) throw new UsageError('--checkpoint-pg needs --stream-name NAME');
  if (o.streamName !== undefined && o.checkpointPg === undefined) throw new UsageError('--stream-name goes with --checkpoint-pg');
  if (o.descending) {
    if (o.checkpointFile !== undefined || o.checkpointPg !== undefined) throw new UsageError('--descending reads history once: it takes no checkpoint');
    if (o.from === 'end') throw new UsageError('--descending with --from end reads nothing: give --from OFFSET or leave it out');
  }
  if (typeof o.from === 'number' && typeof o.to === 'number' && o.to < o.from) throw new UsageError(`--to ${o.to} is below --from ${o.from}`);
}

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
 * - stderr: a progress line when stderr is a terminal and the data does not go to the same terminal (or
 *   with `progress`), JSON-lines logs, the error description, and with `stats` a JSON summary line.
 *
 * Exit codes: 0 done or stopped; 1 local failure (file, checkpoint store, database); 2 bad usage; 3
 * non-retryable server error (a pruned start prints the earliest available offset); 4 retries exhausted. A
 * closed stdout (EPIPE) ends quietly with 0.
 */
export async function runTail(options: TailOptions, io: CliIo): Promise<ExitCode> {
  let progress: ProgressLine | undefined;
  const logger = createCommandLogger(io, options.logLevel, () => progress?.clear());
  const stops = listenForStopSignals(io.signals, logger, io.forceExit ?? (() => undefined));
  const startedAt = performance.now();
  let source: LedgerSource | undefined;
  let checkpoints: OpenedCheckpointStore | undefined;
  let output: OutputTarget | undefined;
  let writer: NdjsonWriter | undefined;
  let firstOffset: number | undefined;
  let lastOffset: number | undefined;
  /** The stream's position for the progress line: the last offset delivered, an unwritten checkpoint's too. */
  let position: number | undefined;
  let ledgerEnd: number | undefined;
  let retries = 0;
  let endPoll: ReturnType<typeof setInterval> | undefined;
  let exit: ExitCode = ExitCode.OK;

  try {
    checkOptions(options);
    const format = buildUpdateFormat(options.filter);
    if (options.checkpointFile !== undefined) await checkCheckpointFile(options.checkpointFile);
    stops.throwIfStopped();
    source = await openLedgerSource(options.source, { env: io.env, logger, validateResponses: options.validate ?? true });
    stops.throwIfStopped();
    const client = source.client;
    checkpoints = await stops.race(openCheckpointStore(options.checkpointFile, options.checkpointPg, options.streamName), (late) => late?.close());
    const onStatus = statusLogger(logger, () => retries++);
    const retry = options.maxRetries === undefined ? {} : { retry: { maxAttempts: options.maxRetries } };
    const bounds = ledgerBounds(client, { ...retry, onStatus, signal: stops.signal });
    const range = await resolveReadRange(options, bounds, logger, 'reading');
    stops.throwIfStopped();

    const toFile = options.out !== undefined && options.out !== '-';
    const out = await openOutput(options.out, io.stdout, checkpoints !== undefined);
    output = out;
    const w = new NdjsonWriter(out.stream, () => out.sync());
    writer = w;
    let store: CheckpointStore | undefined = checkpoints?.store;
    if (store && toFile) {
      const writtenUpTo = await lastLineOffset(options.out as string);
      if (writtenUpTo !== undefined) logger.info({ offset: writtenUpTo }, 'the output file ends with this offset: resuming after it unless the checkpoint is further');
      store = resumeAfterOutput(store, writtenUpTo);
    }
    stops.throwIfStopped();

    const dataOnTerminal = options.out === undefined && io.stdoutIsTTY === true;
    if (options.progress ?? (io.stderrIsTTY && !dataOnTerminal)) {
      progress = new ProgressLine({ out: io.stderr, read: () => ({ count: w.count, lastOffset: position, ledgerEnd }) });
      const poll = () => {
        Promise.resolve(client.ledgerEnd()).then((e) => (ledgerEnd = e.offset ?? 0), () => undefined);
      };
      poll();
      endPoll = setInterval(poll, 1_000);
      endPoll.unref();
    }

    // Every element the handler took, in order: an element counts as delivered once its line is written
    // (or, for an OffsetCheckpoint that is not written, once it was seen), even when the read is cut while
    // the handler waits for the output to drain. The checkpoint is tracked on this, not on what the read
    // emits afterwards, so it covers every line written.
    const delivered = new Subject<JsGetUpdatesResponse>();
    let handledOffset: number | undefined;
    const handler = (element: JsGetUpdatesResponse): ObservableInput<unknown> => {
      const offset = updateOffset(element);
      if (offset !== undefined) {
        // An element handled before is delivered again when the read was retried while it waited for
        // the output to drain: it is written already.
        if (handledOffset !== undefined && (options.descending ? offset >= handledOffset : offset <= handledOffset)) return none;
        handledOffset = offset;
        position = offset;
      }
      if (!options.includeCheckpoints && isOffsetCheckpoint(element)) {
        delivered.next(element);
        return none;
      }
      const ready = w.write(element);
      if (offset !== undefined) {
        firstOffset ??= offset;
        lastOffset = offset;
      }
      delivered.next(element);
      return ready ? none : w.drained();
    };
    const pageLimit = options.pageLimit ?? 200;

    let updates$: Observable<JsGetUpdatesResponse> | undefined;
    if (options.descending) {
      updates$ = readDescending(client, {
        updateFormat: format,
        endInclusive: range.endInclusive ?? 'ledger-end',
        beginExclusive: typeof range.beginExclusive === 'number' ? range.beginExclusive : 0,
        pageLimit: options.limit === undefined ? pageLimit : Math.min(pageLimit, options.limit),
        handler,
        onStatus,
        validate: options.validate ?? true,
        rawText: true,
        ...retry,
      });
    } else if (range.endInclusive !== 0) {
      const endInclusive = range.endInclusive;
      updates$ = tailUpdates(client, {
        beginExclusive: range.beginExclusive,
        ...(store ? { checkpointStore: store } : {}),
        updateFormat: format,
        ...(typeof endInclusive === 'number' ? { endInclusive } : {}),
        pageLimit,
        ...(options.idleTimeoutMs === undefined ? {} : { idleTimeoutMs: options.idleTimeoutMs }),
        ...(options.longPollMs === undefined ? {} : { longPollMs: options.longPollMs }),
        handler,
        onStatus,
        validate: options.validate ?? true,
        rawText: true,
        ...retry,
      });
    }

    if (updates$) {
      let seen = 0;
      const limit = options.limit;
      const saving = store ? flushBeforeSave(store, () => w.flush()) : undefined;
      if (checkpoints) logger.info({ checkpoint: checkpoints.description }, 'resuming from the checkpoint, if any');
      const trackFailure = new Subject<never>();
      const tracked = saving
        ? new Promise<void>((resolve, reject) =>
            delivered.pipe(trackCheckpoint(saving, { every: options.checkpointEvery ?? 100, everyMs: options.checkpointEveryMs ?? 1_000 })).subscribe({
              error: (error: unknown) => {
                reject(error);
                trackFailure.error(error);
              },
              complete: resolve,
            }),
          )
        : undefined;
      tracked?.catch(() => undefined);
      try {
        await lastValueFrom(
          updates$.pipe(
            limit === undefined ? identity : takeWhile((e) => isOffsetCheckpoint(e) || ++seen < limit, true),
            takeUntil(stops.stop$),
            takeUntil(trackFailure),
          ),
          { defaultValue: undefined },
        );
      } catch (error) {
        delivered.error(error); // saves what was delivered, then fails
        await tracked?.catch(() => undefined);
        throw error;
      }
      delivered.complete(); // saves what was delivered
      await tracked;
    }
    await w.flush();
  } catch (error) {
    const failure = writer?.error;
    if (error instanceof StopRequested) {
      logger.info({}, 'stopped before the read started; nothing written');
    } else if (failure && (failure as NodeJS.ErrnoException).code === 'EPIPE') {
      logger.info({}, 'the output was closed; stopping');
    } else {
      exit = exitCodeFor(error);
      progress?.clear();
      io.stderr.write(`${describeError(error)}\n`);
    }
  } finally {
    if (endPoll) clearInterval(endPoll);
    progress?.stop();
    stops.dispose();
    await output?.close().catch(() => undefined);
    await checkpoints?.close().catch(() => undefined);
    await source?.close().catch(() => undefined);
  }
  if (options.stats) {
    const stats = computeRunStats({
      count: writer?.count ?? 0,
      bytes: writer?.bytes ?? 0,
      elapsedMs: performance.now() - startedAt,
      firstOffset,
      lastOffset,
      retries,
    });
    io.stderr.write(`${JSON.stringify(stats)}\n`);
  }
  return exit;
}
