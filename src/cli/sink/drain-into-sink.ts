import { NEVER, Subject, concatMap, filter, lastValueFrom, take, takeUntil, tap, type Observable } from 'rxjs';
import { tailUpdates } from '../../operators/tail-updates.js';
import { BatchCommitter, type BatchCommit } from '../../sinks/batch-committer.js';
import type { LedgerClient } from '../../client/ledger-client.js';
import type { UpdateFormat } from '../../schemas/index.js';
import type { LedgerSink, SinkPosition } from '../../sinks/ledger-sink.js';
import { buildUpdateFormat } from '../options/build-update-format.js';
import { UsageError } from '../options/usage-error.js';
import type { CliIo } from '../process/cli-io.js';
import type { StreamingRun } from '../process/streaming-run.js';
import { firstContact } from '../source/first-contact.js';
import { ledgerBounds, type LedgerBounds } from '../source/ledger-bounds.js';
import { openRunSource } from '../source/open-run-source.js';
import { resolveReadRange, type ReadRange } from '../source/resolve-read-range.js';
import type { SinkReadOptions } from './sink-read-options.js';

/** The defaults and words of one command over {@link drainIntoSink}. */
export interface DrainSettings {
  /** Log word for the range: "ingesting", "publishing". */
  readonly activity: string;
  readonly defaultBatch: number;
  readonly defaultBatchMs: number;
  /** Called after each commit (besides the counting and logging done here). */
  readonly onCommit?: ((commit: BatchCommit) => void) | undefined;
  /** Ends the read with its error when it errors (the ingest sink lost its stream lock). */
  readonly failure$?: Observable<never> | undefined;
  /**
   * For a new stream (the sink holds no position), once the range is resolved: may store a starting state
   * itself (ingest: the active-contract snapshot) and resolve with the position it stored, after which the
   * read continues; `undefined` reads the range as it is.
   */
  readonly startNewStream?: ((start: NewStreamStart) => Promise<SinkPosition | undefined>) | undefined;
  /**
   * Checks a stream that resumes before its read starts (ingest: that the participant's ledger is the one stored, and
   * the scope change of a start); rejects to stop; may resolve with the format to read with instead of the flags'.
   */
  readonly checkResume?: ((resumed: SinkPosition, start: NewStreamStart) => Promise<UpdateFormat | void>) | undefined;
  /** Changes the read's filter while it runs, between two batches (ingest: a live scope change). */
  readonly reformat?: LiveReformat | undefined;
}

/**
 * A change of a running read's filter (see {@link drainIntoSink}): `requests` emits when one may be wanted (a
 * notification, a signal), `pending` says whether one is, and `apply` makes it with every batch committed at
 * `position`, resolving with the format to read with after it.
 */
export interface LiveReformat {
  readonly requests: Observable<unknown>;
  readonly pending: () => Promise<boolean>;
  readonly apply: (position: SinkPosition, client: LedgerClient) => Promise<UpdateFormat>;
}

/** What {@link DrainSettings.startNewStream} decides with. */
export interface NewStreamStart {
  readonly client: LedgerClient;
  readonly range: ReadRange;
  readonly bounds: LedgerBounds;
  readonly updateFormat: UpdateFormat;
}

/**
 * The work `ingest` and `publish` share, inside `runStreamingCommand`: opens the participant, then the
 * sink (`openSink`; both closed at the end of the run), starts the sink — which says where the stream
 * resumes — and reads with `tailUpdates` after that position (or `from` for a new stream) up to `to` or
 * forever, handing every element to a {@link BatchCommitter} over the sink (`batch` elements / `batchMs`).
 * A new stream may first store a starting state (`startNewStream`: ingest's snapshot) and read after it; a stream
 * that resumes may be read with another format than the flags' (`checkResume`'s answer). With `reformat`, when its
 * `requests` emit and a change is `pending`, the read is stopped, the open batch committed (`flush`), `apply` called
 * with the committed position, and the read started again after that same position with the format it gives: no
 * element is lost or read twice (the committer keeps its order check across reads).
 * A stop (SIGINT/SIGTERM) during the read commits what was read and returns; during the start-up it
 * abandons it (`StopRequested`). The range is resolved as for `tail` (`resolveReadRange`).
 *
 * Rejects with the first failure: the source's, the sink's start, a commit (which also ends the read).
 */
export async function drainIntoSink(
  options: SinkReadOptions,
  io: CliIo,
  run: StreamingRun,
  openSink: () => Promise<LedgerSink>,
  settings: DrainSettings,
): Promise<void> {
  const { logger, stops } = run;
  if (typeof options.from === 'number' && typeof options.to === 'number' && options.to < options.from) {
    throw new UsageError(`--to ${options.to} is below --from ${options.from}`);
  }
  const format = buildUpdateFormat(options.filter);
  const source = await openRunSource(run, io, options.source, options.validate ?? true);
  const client = source.client;
  const sink = await stops.race(openSink(), (late) => late.close());
  run.release(() => sink.close());
  const resumed = await stops.race(sink.start(stops.signal));
  logger.info({ resumeAfter: resumed?.offset ?? null }, resumed ? 'resuming after the stored position' : 'new stream');

  let count = 0;
  let bytes = 0;
  let firstOffset: number | undefined;
  let lastOffset: number | undefined;
  run.tally(() => ({ count, bytes, firstOffset, lastOffset }));
  const failure = new Subject<never>();
  let committed = resumed;
  const onCommit = (commit: BatchCommit) => {
    committed = commit.position;
    settings.onCommit?.(commit);
    if (!commit.applied) {
      logger.warn({ offset: commit.position.offset }, 'batch already stored (skipped)');
      return;
    }
    run.monitor.batchCommitted(commit);
    count += commit.updates;
    bytes += commit.bytes;
    firstOffset ??= commit.firstOffset;
    lastOffset = commit.position.offset;
    logger.debug({ from: commit.firstOffset, to: commit.position.offset, updates: commit.updates }, 'batch committed');
  };
  const batches = new BatchCommitter({
    sink,
    size: options.batch ?? settings.defaultBatch,
    maxDelayMs: options.batchMs ?? settings.defaultBatchMs,
    start: resumed,
    onCommit,
    onFailure: (error) => failure.error(error),
  });
  try {
    if (options.progress ?? io.stderrIsTTY) {
      run.showProgress(() => ({ count, lastOffset }), async () => (await client.ledgerEnd()).offset ?? 0);
    }
    const retry = options.maxRetries === undefined ? {} : { retry: { maxAttempts: options.maxRetries } };
    const bounds = ledgerBounds(client, { ...retry, onStatus: run.onStatus, signal: stops.signal, firstContact: firstContact(options.source, source) });
    const range = await resolveReadRange({ from: options.from, to: options.to }, bounds, logger, settings.activity);
    await bounds.reach();
    const endInclusive = range.endInclusive;
    stops.throwIfStopped();
    let updateFormat = (resumed ? await settings.checkResume?.(resumed, { client, range, bounds, updateFormat: format }) : undefined) ?? format;
    const start = resumed ?? (await settings.startNewStream?.({ client, range, bounds, updateFormat: format }));
    committed = start;
    let after = start?.offset ?? range.beginExclusive;
    const { reformat } = settings;
    // A stream already at or beyond --to has nothing left to read.
    let done = endInclusive === 0 || (start !== undefined && typeof endInclusive === 'number' && start.offset >= endInclusive);
    // read until the end of the range, a stop or a failure; a wanted change of the filter ends one read, the open batch
    // is committed, the change made, and the read goes on after the same position with the new filter
    while (!done) {
      let changeWanted = false;
      const wanted = reformat === undefined ? NEVER : reformat.requests.pipe(concatMap(() => reformat.pending()), filter(Boolean), take(1), tap(() => (changeWanted = true)));
      await lastValueFrom(
        tailUpdates(client, {
          beginExclusive: after,
          updateFormat,
          ...(typeof endInclusive === 'number' ? { endInclusive } : {}),
          pageLimit: options.pageLimit ?? 200,
          ...(options.idleTimeoutMs === undefined ? {} : { idleTimeoutMs: options.idleTimeoutMs }),
          ...retry,
          ...(options.source.transport === undefined ? {} : { transport: options.source.transport }),
          onStatus: run.onStatus,
          handler: (element) => batches.add(element),
          validate: options.validate ?? true,
          rawText: true,
        }).pipe(takeUntil(stops.stop$), takeUntil(failure), takeUntil(settings.failure$ ?? NEVER), takeUntil(wanted)),
        { defaultValue: undefined },
      );
      if (!changeWanted || reformat === undefined || stops.stopped) break;
      await batches.flush();
      const at: SinkPosition | undefined = committed;
      if (at === undefined) throw new Error('a filter change before the first commit'); // pending() is false until then
      updateFormat = await reformat.apply(at, client);
      after = at.offset;
      done = typeof endInclusive === 'number' && at.offset >= endInclusive;
    }
    await batches.flush();
  } catch (error) {
    batches.dispose();
    throw error;
  }
}
