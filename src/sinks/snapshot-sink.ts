import type { JsGetActiveContractsResponse } from '../schemas/index.js';

/** The outcome of {@link SnapshotSink.bootstrap}. */
export interface SnapshotBootstrap {
  /** Entries of the snapshot read (every kind). */
  readonly entries: number;
  /** Active contracts stored (`JsActiveContract` and `JsIncompleteAssigned` entries, each contract once). */
  readonly contracts: number;
  /** `JsIncompleteUnassigned` entries: contracts in flight between synchronizers, active again once their assignment (an update after the snapshot) arrives. */
  readonly incompleteUnassigned: number;
}

/**
 * A {@link LedgerSink} that can start a new stream from the active-contract snapshot instead of from the
 * first update: the state at an offset, then the updates after it (`PostgresSink` is one).
 *
 * `bootstrap(offset, chunks)` is called at most once, after `start` resolved with no position (a new stream)
 * and before any `write`: it stores the active contracts of the snapshot taken at `offset`, read from
 * `chunks` (its entries in the participant's order, in chunks of any size; the sink pulls the next chunk when
 * it is ready for it, so the snapshot never needs to be in memory at once) TOGETHER with the position
 * `offset`, and resolves once both are durable — or rejects, and keeps nothing of them (a crash likewise
 * leaves nothing: a restart finds a new stream and takes the snapshot again). After it, `write`/`commit`
 * continue with the updates after `offset`. When the stream already has a position (another writer
 * bootstrapped it meanwhile) it rejects with `SINK_CONFLICT` and stores nothing.
 *
 * @see LedgerSink
 */
export interface SnapshotSink {
  bootstrap(offset: number, chunks: AsyncIterable<readonly JsGetActiveContractsResponse[]>): Promise<SnapshotBootstrap>;
}
