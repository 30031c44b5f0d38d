import { EMPTY, Subject, defer, merge, tap } from 'rxjs';
import type { SqlDatabase } from '../../checkpoints/sql-database.js';
import { ErrorCodes } from '../../errors/error-codes.js';
import { LedgerRxError } from '../../errors/ledger-rx-error.js';
import type { SinkPosition } from '../../sinks/ledger-sink.js';
import type { PostgresSink, PostgresSinkStatus } from '../../sinks/postgres/postgres-sink.js';
import type { CommittedOffsetsSource } from '../../sinks/postgres/watch-committed-offsets.js';
import { watchScopeRequests } from '../../sinks/postgres/watch-scope-requests.js';
import { readDarFiles } from '../options/read-dar-files.js';
import { UsageError } from '../options/usage-error.js';
import type { CliIo } from '../process/cli-io.js';
import type { ExitCode } from '../process/exit-code.js';
import { runStreamingCommand } from '../process/run-streaming-command.js';
import { drainIntoSink, type LiveReformat, type NewStreamStart } from '../sink/drain-into-sink.js';
import type { IngestOptions } from './ingest-options.js';
import { applyLiveScope, scopeChangePending } from './apply-live-scope.js';
import { scopeOfFilter } from './scope-of-filter.js';
import { startScope } from './start-scope.js';
import { checkSameLedger } from './check-same-ledger.js';
import { openIngestSink } from './open-ingest-sink.js';
import { ScopeRequestFiles } from './scope-request-files.js';
import { planSnapshotStart } from './plan-snapshot-start.js';
import { startFromSnapshot } from './start-from-snapshot.js';

const identifier = /^[a-z_][a-z0-9_]*$/;

/**
 * `ledger-rx ingest`: loads the participant's updates into PostgreSQL (see `migrations` for the tables) —
 * the server of `pg`, or without it the embedded PostgreSQL in `dataDir` (see `openIngestSink`) — and
 * resolves with the exit code (it never calls `process.exit`).
 *
 * 1. Starts a `PostgresSink`: runs the migrations of `schema` (idempotent, serialized by an advisory lock)
 *    and takes the stream's advisory lock (one ingester per stream, waiting up to `lockWaitMs`).
 * 2. Reads with `tailUpdates` from the stream's checkpoint row (or `from` for a new stream) up to `to`
 *    (or forever) — `drainIntoSink`.
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
 * A NEW stream starts from the active-contract snapshot (`planSnapshotStart`, `startFromSnapshot`) with
 * `fromAcs` (at `at`, else the ledger end), and with `from` `begin` on a pruned participant (at the pruning
 * offset: the contracts created before it and still active are in no update the participant still serves):
 * the snapshot's contracts and the checkpoint at its offset are committed in one transaction
 * (`PostgresSink.bootstrap`), then the updates after it follow as above, so `active_contracts` equals the
 * participant's active set at every checkpoint. A crash during the snapshot leaves nothing (a restart takes
 * it again); a stream with a position never takes one again.
 *
 * A stream that resumes is first checked against the participant (`checkSameLedger`): a store filled from
 * another ledger (its checkpoint after the participant's end, or its last update not the participant's) is
 * refused with exit 1 before anything is read.
 *
 * With `dars` (`--dar`), the sink's start creates or replaces a typed SQL view per template and interface of each
 * DAR's main package (docs/query-store.md, "Typed views"); a DAR that cannot be read stops it with exit 1.
 *
 * A stream that resumes decides its scope first (`startScope`): other `--party`/`--template`/`--interface` flags than
 * the start that last set it set the scope; the same flags keep a scope changed live and apply a pending request.
 * What was added is backfilled from the active-contract snapshot at the checkpoint, what was removed leaves
 * `active_contracts`, in one transaction (docs/query-store.md, "Scope changes without a re-seed"). While it runs, a
 * request (`store scope`: a notification on the stream's scope channel, or on an embedded store a file in its
 * directory; or a SIGHUP) is applied the same way between two batches (`applyLiveScope`), and the read goes on with
 * the new filter after the same offset.
 *
 * With `standby`, a second ingester of the stream waits for its lock as long as it takes and takes over
 * when the leader's session ends (see `PostgresSink`: the leader commits on the lock's session, so one that
 * lost it cannot commit); a leader that loses its lock stops at once with exit 1 (`SINK_CONFLICT`).
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
export function runIngest(options: IngestOptions, io: CliIo): Promise<ExitCode> {
  const settings = { logLevel: options.logLevel, stats: options.stats, activity: 'ingesting', summary: 'ingested', monitoring: options.monitoring, stream: options.streamName };
  return runStreamingCommand(io, settings, async (run) => {
    const schema = options.schema ?? 'public';
    const streamName = options.streamName ?? 'default';
    if (!identifier.test(schema)) throw new UsageError(`--schema must be a plain lower-case SQL identifier, got '${schema}'`);
    if (streamName === '') throw new UsageError('--stream-name must not be empty');
    const { logger, monitor } = run;
    const dars = await readDarFiles(options.dars ?? []);
    const scope = scopeOfFilter(options.filter);
    const lockLost = new Subject<never>();
    const onStatus = (status: PostgresSinkStatus) => {
          if (status.type === 'schema-ready') logger.info({ schema, version: status.version, applied: status.applied }, 'schema ready');
          else if (status.type === 'typed-views') {
            logger.info({ schema, views: status.views }, 'typed views ready');
            const interfaces = status.views.filter((v) => v.kind === 'interface');
            if (interfaces.length > 0 && (options.filter.interfaces ?? []).length === 0) {
              logger.warn(
                { views: interfaces.map((v) => v.name) },
                'interface views are filled from the views the participant computes, which it sends only for the interfaces of the filter: add --interface for each',
              );
            }
          }
          else if (status.type === 'idle-connection-failed') logger.warn({ err: status.error }, 'idle PostgreSQL connection failed');
          else if (status.type === 'waiting-for-lock') {
            monitor.setPhase('standby');
            logger.info(
              { stream: streamName },
              options.standby ? 'standby: another process ingests this stream; taking over when its session ends' : 'another process ingests this stream; waiting for its lock',
            );
          } else if (status.type === 'locked') {
            monitor.setPhase('starting');
            logger.info({ stream: streamName, waitedMs: Math.round(status.waitedMs) }, 'took the stream lock');
          } else if (status.type === 'lock-lost') {
            logger.error({ stream: streamName, err: status.error }, 'lost the stream lock: another process may take over; stopping without committing');
            lockLost.error(new LedgerRxError(ErrorCodes.SINK_CONFLICT, `lost the lock of stream '${streamName}'`, { cause: status.error }));
          }
    };
    let sink: PostgresSink | undefined;
    let channels: CommittedOffsetsSource | undefined;
    let requestFiles: { readonly files: ScopeRequestFiles; readonly database: SqlDatabase } | undefined;
    const openSink = async () => {
      const opened = await openIngestSink(options, { schema, streamName, onStatus, signal: run.stops.signal, logger, dars, scope });
      channels = opened.channels;
      if (opened.embedded !== undefined) requestFiles = { files: new ScopeRequestFiles(opened.embedded.dataDir), database: opened.embedded.database };
      return (sink = opened.sink);
    };
    // an embedded store's requests come as files (another process cannot open it): recorded in it before each look
    const takeRequestFiles = () => requestFiles?.files.take(requestFiles.database, schema, streamName, logger) ?? Promise.resolve();
    const retry = options.maxRetries === undefined ? undefined : { maxAttempts: options.maxRetries };
    const scopeContext = (s: PostgresSink) =>
      ({ sink: s, filter: options.filter, transport: options.source.transport ?? 'auto', chunkSize: options.batch ?? 1_000, retry, validate: options.validate ?? true, run }) as const;
    const startNewStream = async ({ client, range, bounds, updateFormat }: NewStreamStart) => {
      const start = await planSnapshotStart(options, range, bounds);
      if (start === undefined || sink === undefined) return undefined;
      const retry = options.maxRetries === undefined ? undefined : { maxAttempts: options.maxRetries };
      const context = { client, sink, updateFormat, transport: options.source.transport ?? 'auto', chunkSize: options.batch ?? 1_000, retry, validate: options.validate ?? true, run } as const;
      return startFromSnapshot(start, context);
    };
    const checkResume = async (resumed: SinkPosition, start: NewStreamStart) => {
      if (sink === undefined) return undefined;
      await checkSameLedger(sink, streamName, resumed, start);
      await takeRequestFiles();
      return startScope(resumed, scope, start.client, scopeContext(sink));
    };
    // live scope changes: a notification on the stream's scope channel (`store scope`, `requestScopeChange`) or a SIGHUP
    // listened to for the whole run, so a SIGHUP during the start-up or a backfill does not end the process (Node's
    // default); one then is not needed: each read looks for a pending change when it starts
    const hangUps = new Subject<void>();
    const onHangUp = () => hangUps.next();
    io.signals.on('SIGHUP', onHangUp);
    run.release(() => io.signals.off('SIGHUP', onHangUp));
    const reformat: LiveReformat = {
      requests: defer(() =>
        merge(
          channels === undefined ? EMPTY : watchScopeRequests(channels, { schema, streamName, onStatus: (s) => s.type === 'connection-lost' && logger.warn({ err: s.error }, 'lost the connection that listens for scope changes; listening again') }),
          hangUps.pipe(tap(() => logger.info({ stream: streamName }, 'SIGHUP: looking for a scope change'))),
          requestFiles === undefined ? EMPTY : requestFiles.files.changes(),
        ),
      ),
      pending: async () => {
        await takeRequestFiles();
        return sink === undefined ? false : scopeChangePending(sink);
      },
      apply: (position, client) => applyLiveScope(position, client, scopeContext(sink as PostgresSink)),
    };
    await drainIntoSink(options, io, run, openSink, { activity: 'ingesting', defaultBatch: 1_000, defaultBatchMs: 500, failure$: lockLost, startNewStream, checkResume, reformat });
  });
}
