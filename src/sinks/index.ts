/**
 * `ledger-rx/sinks`: the shape every sink has — a {@link LedgerSink} stores the update stream exactly once
 * with its position — and {@link BatchCommitter}, which drives any sink from `tailUpdates`. The sinks
 * themselves have their own entry points, so that each brings only its own driver's types:
 * `ledger-rx/postgres` (`PostgresSink`, `PostgresCheckpointStore`) and `ledger-rx/jetstream`
 * (`JetStreamSink`, `consumeLedgerFromJetStream`). The export to Parquet / NDJSON+zstd files is here
 * ({@link ExportSink}, {@link exportUpdates}): its writer and zstd are optional peer dependencies, loaded
 * only when an export starts.
 *
 * @module ledger-rx/sinks
 */
export type { LedgerSink, SinkCommit, SinkPosition } from './ledger-sink.js';
export type { SnapshotBootstrap, SnapshotSink } from './snapshot-sink.js';
export { BatchCommitter } from './batch-committer.js';
export type { BatchCommit, BatchCommitterOptions } from './batch-committer.js';
export { ExportSink } from './export/export-sink.js';
export type { ExportSinkOptions, ExportSinkStatus } from './export/export-sink.js';
export { exportUpdates } from './export/export-updates.js';
export type { ExportUpdatesOptions } from './export/export-updates.js';
export { exportTables, updateTables } from './export/export-tables.js';
export type { ExportColumn, ExportColumnType, ExportTableName } from './export/export-tables.js';
export type { ExportFormat } from './export/export-file-name.js';
