/**
 * `ledger-rx/sinks`: the shape every sink has — a {@link LedgerSink} stores the update stream exactly once
 * with its position — and {@link BatchCommitter}, which drives any sink from `tailUpdates`. The sinks
 * themselves have their own entry points, so that each brings only its own driver's types:
 * `ledger-rx/postgres` (`PostgresSink`, `PostgresCheckpointStore`) and `ledger-rx/jetstream`
 * (`JetStreamSink`, `consumeLedgerFromJetStream`).
 *
 * @module ledger-rx/sinks
 */
export type { LedgerSink, SinkCommit, SinkPosition } from './ledger-sink.js';
export type { SnapshotBootstrap, SnapshotSink } from './snapshot-sink.js';
export { BatchCommitter } from './batch-committer.js';
export type { BatchCommit, BatchCommitterOptions } from './batch-committer.js';
