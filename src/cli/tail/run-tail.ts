import { identity, lastValueFrom, takeUntil, takeWhile, type Observable, type ObservableInput } from 'rxjs';
import { readDescending } from '../../operators/read-descending.js';
import { tailUpdates } from '../../operators/tail-updates.js';
import { trackCheckpoint } from '../../operators/track-checkpoint.js';
import type { JsGetUpdatesResponse } from '../../schemas/updates.js';
import { updateOffset } from '../../streams/update-offset.js';
import { buildUpdateFormat } from '../build-update-format.js';
import type { CliIo } from '../cli-io.js';
import { computeRunStats } from '../compute-run-stats.js';
import { createCommandLogger } from '../create-command-logger.js';
import { describeError } from '../describe-error.js';
import { exitCodeFor } from '../exit-code-for.js';
import { ExitCode } from '../exit-code.js';
import { flushBeforeSave } from '../flush-before-save.js';
import { isOffsetCheckpoint } from '../is-offset-checkpoint.js';
import type { LedgerSource } from '../ledger-source.js';
import { NdjsonWriter } from '../ndjson-writer.js';
import { openCheckpointStore, type OpenedCheckpointStore } from '../open-checkpoint-store.js';
import { openLedgerSource } from '../open-ledger-source.js';
import { openOutput } from '../open-output.js';
import type { OutputTarget } from '../output-target.js';
import { ProgressLine } from '../progress-line.js';
import { resolveEndOffset } from '../resolve-end-offset.js';
import { statusLogger } from '../status-logger.js';
import { listenForStopSignals } from '../listen-for-stop-signals.js';
import { UsageError } from '../usage-error.js';
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
 * - Range: after `from` (default `begin`; `end` = only new updates) up to `to` (inclusive; `end` = the
 *   ledger end at start), or forever. With `descending`: newest first, from `to` (default: the ledger end)
 *   down to `from`, at most `limit` updates ("the newest N"). Without it, `limit` stops after N updates.
 * - Checkpoint (`checkpointFile`, or `checkpointPg` + `streamName`): the read resumes after the stored
 *   offset (`from` only applies to a new stream); the offset is saved only after the lines up to it were
 *   written, flushed and fsynced, every `checkpointEvery` elements / `checkpointEveryMs`, and at the end.
 *   A crash between a write and the next save repeats those lines on restart (at least once); nothing the
 *   checkpoint covers is written again. The output file is appended to when a checkpoint is used.
 * - Backpressure: a full output buffer pauses the read (the next page is requested once it drained).
 * - SIGINT/SIGTERM: the element in hand is finished, the output and the checkpoint are flushed, exit 0.
 * - stderr: a progress line when stderr is a terminal and the data does not go to the same terminal (or
 *   with `progress`), JSON-lines logs, the error description, and with `stats` a JSON summary line.
 *
 * Exit codes: 0 done or stopped; 1 local failure; 2 bad usage; 3 non-retryable server error (a pruned
 * start prints the earliest available offset); 4 retries exhausted. A closed stdout (EPIPE) ends quietly
 * with 0.
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
  let ledgerEnd: number | undefined;
  let retries = 0;
  let endPoll: ReturnType<typeof setInterval> | undefined;
  let exit: ExitCode = ExitCode.OK;

  try {
    checkOptions(options);
    const format = buildUpdateFormat(options.filter);
    source = await openLedgerSource(options.source, { env: io.env, logger, validateResponses: options.validate ?? true });
    const client = source.client;
    checkpoints = await openCheckpointStore(options.checkpointFile, options.checkpointPg, options.streamName);
    const out = await openOutput(options.out, io.stdout, checkpoints !== undefined);
    output = out;
    const w = new NdjsonWriter(out.stream, () => out.sync());
    writer = w;

    const dataOnTerminal = options.out === undefined && io.stdoutIsTTY === true;
    if (options.progress ?? (io.stderrIsTTY && !dataOnTerminal)) {
      progress = new ProgressLine({ out: io.stderr, read: () => ({ count: w.count, lastOffset, ledgerEnd }) });
      const poll = () => {
        Promise.resolve(client.ledgerEnd()).then((e) => (ledgerEnd = e.offset ?? 0), () => undefined);
      };
      poll();
      endPoll = setInterval(poll, 1_000);
      endPoll.unref();
    }

    const handler = (element: JsGetUpdatesResponse): ObservableInput<unknown> => {
      if (!options.includeCheckpoints && isOffsetCheckpoint(element)) return none;
      const ready = w.write(element);
      const offset = updateOffset(element);
      if (offset !== undefined) {
        firstOffset ??= offset;
        lastOffset = offset;
      }
      return ready ? none : w.drained();
    };
    const onStatus = statusLogger(logger, () => retries++);
    const retry = options.maxRetries === undefined ? {} : { retry: { maxAttempts: options.maxRetries } };
    const pageLimit = options.pageLimit ?? 200;

    let updates$: Observable<JsGetUpdatesResponse> | undefined;
    if (options.descending) {
      updates$ = readDescending(client, {
        updateFormat: format,
        endInclusive: typeof options.to === 'number' ? options.to : 'ledger-end',
        beginExclusive: typeof options.from === 'number' ? options.from : 0,
        pageLimit: options.limit === undefined ? pageLimit : Math.min(pageLimit, options.limit),
        handler,
        onStatus,
        validate: options.validate ?? true,
          rawText: true,
        ...retry,
      });
    } else {
      const endInclusive = await resolveEndOffset(client, options.to, logger, 'reading');
      if (endInclusive !== 0) {
        const from = options.from ?? 'begin';
        updates$ = tailUpdates(client, {
          beginExclusive: from === 'end' ? 'ledger-end' : from,
          ...(checkpoints ? { checkpointStore: checkpoints.store } : {}),
          updateFormat: format,
          ...(endInclusive === undefined ? {} : { endInclusive }),
          pageLimit,
          ...(options.longPollMs === undefined ? {} : { longPollMs: options.longPollMs }),
          handler,
          onStatus,
          validate: options.validate ?? true,
          rawText: true,
          ...retry,
        });
      }
    }

    if (updates$) {
      let seen = 0;
      const limit = options.limit;
      const store = checkpoints ? flushBeforeSave(checkpoints.store, () => w.flush()) : undefined;
      if (checkpoints) logger.info({ checkpoint: checkpoints.description }, 'resuming from the checkpoint, if any');
      await lastValueFrom(
        updates$.pipe(
          limit === undefined ? identity : takeWhile((e) => isOffsetCheckpoint(e) || ++seen < limit, true),
          takeUntil(stops.stop$),
          store ? trackCheckpoint(store, { every: options.checkpointEvery ?? 100, everyMs: options.checkpointEveryMs ?? 1_000 }) : identity,
        ),
        { defaultValue: undefined },
      );
    }
    await w.flush();
  } catch (error) {
    const failure = writer?.error;
    if (failure && (failure as NodeJS.ErrnoException).code === 'EPIPE') {
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
