import { PrunedOffsetError } from '../../errors/pruned-offset-error.js';
import { InvalidArgumentError } from '../../errors/invalid-argument-error.js';
import { snapshotFormats } from '../../operators/internal/snapshot-formats.js';
import type { Transport } from '../../updates/transport.js';
import type { SnapshotSource } from '../../operators/snapshot-source.js';
import type { RetryConfig } from '../../retry/retry-config.js';
import type { UpdateFormat } from '../../schemas/index.js';
import type { SinkPosition } from '../../sinks/ledger-sink.js';
import type { SnapshotSink } from '../../sinks/snapshot-sink.js';
import { UsageError } from '../options/usage-error.js';
import type { StreamingRun } from '../process/streaming-run.js';
import type { SnapshotStart } from './plan-snapshot-start.js';
import { snapshotChunks } from './snapshot-chunks.js';

/** What {@link startFromSnapshot} reads with and writes to. */
export interface SnapshotStartContext {
  readonly client: SnapshotSource;
  readonly sink: SnapshotSink;
  /** The stream's update format: the snapshot takes the event format of its transactions (else of its reassignments). */
  readonly updateFormat: UpdateFormat;
  /** `--transport`: the snapshot's transport too (`'auto'`: WebSocket, then page, then list). */
  readonly transport: Transport;
  /** Entries per insert statement (`--batch`). */
  readonly chunkSize: number;
  readonly retry: RetryConfig | undefined;
  readonly validate: boolean;
  readonly run: Pick<StreamingRun, 'logger' | 'onStatus' | 'stops'>;
}

/** Times a snapshot at the pruning offset is taken again after the participant pruned past it meanwhile. */
const prunedAgainAttempts = 3;

/**
 * Starts a new ingest stream from the active-contract snapshot at `start.offset`: reads it with
 * `activeContractsSnapshot` (the `--transport` choice, `'auto'` falling back like the updates; retried at
 * the same offset) and hands it to `sink.bootstrap` in chunks of `chunkSize` pulled by the sink's
 * transaction (`pullChunks`: the read is paused while the database is behind), which stores the contracts
 * and the position `start.offset` together, or nothing. Resolves with that position: the updates after it
 * follow through the usual tail.
 *
 * When the participant prunes past a snapshot taken at the pruning offset (`start.why` `pruned`) while it is
 * read (`PrunedOffsetError`), nothing was stored, and the snapshot is taken again at the new pruning offset
 * (up to three times). A SIGINT/SIGTERM during the snapshot abandons it (nothing stored; `StopRequested`).
 * Rejects with the read's or the sink's error otherwise; an update format with neither transactions nor
 * reassignments is a `UsageError`.
 */
export async function startFromSnapshot(start: SnapshotStart, context: SnapshotStartContext): Promise<SinkPosition> {
  const { sink, run, transport } = context;
  let eventFormat;
  try {
    eventFormat = snapshotFormats({ updateFormat: context.updateFormat }).eventFormat;
  } catch (error) {
    if (error instanceof InvalidArgumentError) throw new UsageError(`a stream that starts from the active contracts needs transactions or reassignments in its filter (${error.message})`);
    throw error;
  }
  let offset = start.offset;
  for (let attempt = 0; ; attempt++) {
    run.logger.info(
      { offset, transport },
      start.why === 'pruned'
        ? 'the participant is pruned: taking the active contracts at the pruning offset, then the updates after it'
        : 'taking the active contracts, then the updates after them',
    );
    const at = offset;
    const chunks = snapshotChunks(context, eventFormat, at);
    try {
      const stored = await sink.bootstrap(at, chunks);
      run.logger.info({ offset: at, contracts: stored.contracts, incompleteUnassigned: stored.incompleteUnassigned, entries: stored.entries }, 'active contracts stored');
      return { offset: at, synchronizerTimes: [] };
    } catch (error) {
      const earliest = error instanceof PrunedOffsetError ? error.earliestOffset : undefined;
      if (start.why !== 'pruned' || earliest === undefined || earliest <= at || attempt >= prunedAgainAttempts) throw error;
      run.logger.warn({ offset: at, prunedUpTo: earliest }, 'the participant pruned past the snapshot while it was read: taking it again at the new pruning offset');
      offset = earliest;
    }
  }
}
