import { Subject, lastValueFrom, takeUntil } from 'rxjs';
import { tailUpdates } from '../../operators/tail-updates.js';
import { BatchCommitter, type BatchCommit } from '../../sinks/batch-committer.js';
import { PostgresSink } from '../../sinks/postgres/postgres-sink.js';
import { buildUpdateFormat } from '../options/build-update-format.js';
import type { CliIo } from '../process/cli-io.js';
import { computeRunStats } from '../report/compute-run-stats.js';
import { createCommandLogger } from '../log/create-command-logger.js';
import { describeError } from '../process/describe-error.js';
import { exitCodeFor } from '../process/exit-code-for.js';
import { ExitCode } from '../process/exit-code.js';
import type { LedgerSource } from '../source/ledger-source.js';
import { openLedgerSource } from '../source/open-ledger-source.js';
import { ProgressLine } from '../report/progress-line.js';
import { statusLogger } from '../log/status-logger.js';
import { ledgerBounds } from '../source/ledger-bounds.js';
import { listenForStopSignals } from '../process/listen-for-stop-signals.js';
import { resolveReadRange } from '../source/resolve-read-range.js';
import { StopRequested } from '../process/stop-requested.js';
import { UsageError } from '../options/usage-error.js';
import type { DaemonMonitor } from '../monitoring/daemon-monitor.js';
import { startDaemonMonitor } from '../monitoring/start-daemon-monitor.js';
import type { IngestOptions } from './ingest-options.js';

const identifier = /^[a-z_][a-z0-9_]*$/;

/**
 * `ledger-rx ingest`: loads the participant's updates into PostgreSQL (see `migrations` for the tables)
 * and resolves with the exit code (it never calls `process.exit`).
 *
 * 1. Starts a `PostgresSink`: runs the migrations of `schema` (idempotent, serialized by an advisory lock)
 *    and takes the stream's advisory lock (one ingester per stream).
 * 2. Reads with `tailUpdates` from the stream's checkpoint row (or `from` for a new stream) up to `to`
 *    (or forever), without response validation (the rows are read defensively).
 * 3. Groups elements into batches of `batch` elements / `batchMs` ms (`BatchCommitter`) and writes each with
 *    multi-row statements AND its checkpoint in one transaction (`PostgresSink.commit`): a batch is
 *    stored entirely, with its checkpoint, or not at all, so a crash at any moment followed by a restart
 *    leaves exactly the rows of the ledger — no gap, no duplicate. A full batch pauses the read until it
 *    is committed (bounded memory).
 *
 * The range is resolved as for `tail` (`resolveReadRange`): `from` `begin` (the default) is the
 * participant's pruning boundary, a `from` after the ledger end is bad usage (exit 2), and the start-up
 * requests are retried like the read (exit 4 when they run out).
 *
 * With `monitoring.metricsPort`: `/metrics` (batch sizes and commit latency besides the read's series),
 * `/healthz` and `/readyz` (not ready while waiting for the stream lock) from the start.
 *
 * SIGINT/SIGTERM, at any moment, commit the open batch and exit 0; during the start-up (connecting,
 * migrations, waiting for the stream lock, resolving the range) they abandon it at once, with nothing
 * written. An explicit `from` that is pruned fails at once with exit 3 and the earliest available offset;
 * a local failure (PostgreSQL unreachable, the stream lock held by another process past `lockWaitMs`)
 * exits 1; other exit codes as for `tail`.
 */
export async function runIngest(options: IngestOptions, io: CliIo): Promise<ExitCode> {
  let progress: ProgressLine | undefined;
  const logger = createCommandLogger(io, options.logLevel, () => progress?.clear());
  const stops = listenForStopSignals(io.signals, logger, io.forceExit ?? (() => undefined));
  const schema = options.schema ?? 'public';
  const streamName = options.streamName ?? 'default';
  const startedAt = performance.now();
  let sink: PostgresSink | undefined;
  let source: LedgerSource | undefined;
  let committer: BatchCommitter | undefined;
  let endPoll: ReturnType<typeof setInterval> | undefined;
  let count = 0;
  let bytes = 0;
  let firstOffset: number | undefined;
  let lastOffset: number | undefined;
  let ledgerEnd: number | undefined;
  let retries = 0;
  let exit: ExitCode = ExitCode.OK;
  let monitor: DaemonMonitor | undefined;

  try {
    if (!identifier.test(schema)) throw new UsageError(`--schema must be a plain lower-case SQL identifier, got '${schema}'`);
    if (streamName === '') throw new UsageError('--stream-name must not be empty');
    const batchSize = options.batch ?? 1_000;
    const batchMs = options.batchMs ?? 500;
    if (typeof options.from === 'number' && typeof options.to === 'number' && options.to < options.from) {
      throw new UsageError(`--to ${options.to} is below --from ${options.from}`);
    }
    const format = buildUpdateFormat(options.filter);
    monitor = await startDaemonMonitor(options.monitoring ?? {}, { stream: streamName, logger });
    const watch = monitor;
    stops.stop$.subscribe(() => watch.setPhase('stopping'));
    stops.throwIfStopped();
    source = await openLedgerSource(options.source, { env: io.env, logger, validateResponses: options.validate ?? true });
    stops.throwIfStopped();
    const client = source.client;
    watch.watchLedgerEnd(() => client.ledgerEnd());

    sink = await PostgresSink.connect({
      url: options.pg,
      schema,
      streamName,
      lockWaitMs: options.lockWaitMs ?? 15_000,
      onStatus: (status) => {
        if (status.type === 'schema-ready') logger.info({ schema, version: status.version, applied: status.applied }, 'schema ready');
        else if (status.type === 'idle-connection-failed') logger.warn({ err: status.error }, 'idle PostgreSQL connection failed');
      },
    });
    watch.setPhase('standby'); // waiting for the stream lock
    const resumed = await stops.race(sink.start(stops.signal));
    watch.setPhase('starting');
    logger.info({ stream: streamName, resumeAfter: resumed?.offset ?? null }, resumed ? 'resuming after the checkpoint' : 'new stream');

    const failure = new Subject<never>();
    const onCommit = (commit: BatchCommit) => {
      if (!commit.applied) {
        logger.warn({ offset: commit.position.offset }, 'batch already stored (skipped)');
        return;
      }
      watch.batchCommitted(commit);
      count += commit.updates;
      bytes += commit.bytes;
      firstOffset ??= commit.firstOffset;
      lastOffset = commit.position.offset;
      logger.debug({ from: commit.firstOffset, to: commit.position.offset, updates: commit.updates }, 'batch committed');
    };
    const batches = new BatchCommitter({ sink, size: batchSize, maxDelayMs: batchMs, start: resumed, onCommit, onFailure: (error) => failure.error(error) });
    committer = batches;

    if (options.progress ?? io.stderrIsTTY) {
      progress = new ProgressLine({ out: io.stderr, read: () => ({ count, lastOffset, ledgerEnd }) });
      const poll = () => {
        Promise.resolve(client.ledgerEnd()).then((e) => (ledgerEnd = e.offset ?? 0), () => undefined);
      };
      poll();
      endPoll = setInterval(poll, 1_000);
      endPoll.unref();
    }

    const retry = options.maxRetries === undefined ? {} : { retry: { maxAttempts: options.maxRetries } };
    const onStatus = watch.withStatus(statusLogger(logger, () => retries++));
    const bounds = ledgerBounds(client, { ...retry, onStatus, signal: stops.signal });
    const range = await resolveReadRange({ from: options.from, to: options.to }, bounds, logger, 'ingesting');
    const endInclusive = range.endInclusive;
    stops.throwIfStopped();

    // A stream already at or beyond --to has nothing left to read.
    const done = endInclusive === 0 || (resumed !== undefined && typeof endInclusive === 'number' && resumed.offset >= endInclusive);
    if (!done) {
      await lastValueFrom(
        tailUpdates(client, {
          beginExclusive: resumed?.offset ?? range.beginExclusive,
          updateFormat: format,
          ...(typeof endInclusive === 'number' ? { endInclusive } : {}),
          pageLimit: options.pageLimit ?? 200,
          ...(options.idleTimeoutMs === undefined ? {} : { idleTimeoutMs: options.idleTimeoutMs }),
          ...retry,
          onStatus,
          handler: (element) => batches.add(element),
          validate: options.validate ?? true,
          rawText: true,
        }).pipe(takeUntil(stops.stop$), takeUntil(failure)),
        { defaultValue: undefined },
      );
    }
    await batches.flush();
  } catch (error) {
    committer?.dispose();
    if (error instanceof StopRequested) {
      logger.info({}, 'stopped before ingesting started; nothing written');
    } else {
      exit = exitCodeFor(error);
      progress?.clear();
      io.stderr.write(`${describeError(error)}\n`);
    }
  } finally {
    if (endPoll) clearInterval(endPoll);
    progress?.stop();
    stops.dispose();
    await sink?.close().catch(() => undefined);
    await source?.close().catch(() => undefined);
    await monitor?.close();
  }
  if (options.stats) {
    const stats = computeRunStats({ count, bytes, elapsedMs: performance.now() - startedAt, firstOffset, lastOffset, retries });
    io.stderr.write(`${JSON.stringify(stats)}\n`);
  }
  return exit;
}
