import { activeContractsSnapshot } from '../../operators/active-contracts-snapshot.js';
import type { EventFormat, JsGetActiveContractsResponse } from '../../schemas/index.js';
import type { SnapshotStartContext } from './start-from-snapshot.js';
import { pullChunks } from './pull-chunks.js';

/**
 * The active-contract snapshot at `at` as chunks of `context.chunkSize` entries pulled by the sink's transaction
 * (`pullChunks`: the read paused while the database is behind, abandoned on a stop): `activeContractsSnapshot`
 * with the context's transport, retries and validation. What a new stream's start and a widened scope's backfill
 * both store.
 */
export function snapshotChunks(context: Omit<SnapshotStartContext, 'sink' | 'updateFormat'>, eventFormat: EventFormat, at: number): AsyncIterable<readonly JsGetActiveContractsResponse[]> {
  const { client, run, transport } = context;
  return pullChunks(
    (paused) =>
      activeContractsSnapshot(
        client,
        { eventFormat, activeAtOffset: at },
        { transport, paused, onStatus: run.onStatus, validate: context.validate, ...(context.retry === undefined ? {} : { retry: context.retry }) },
      ),
    context.chunkSize,
    run.stops.signal,
  );
}
