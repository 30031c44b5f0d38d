/**
 * `ledger-rx/sinks`: destinations that store the update stream exactly once with its position — one
 * {@link LedgerSink} shape, driven from `tailUpdates` by {@link BatchCommitter}. Drivers (pg) are loaded
 * only when a sink connects.
 */
export type { LedgerSink, SinkCommit, SinkPosition } from './ledger-sink.js';
export { BatchCommitter } from './batch-committer.js';
export type { BatchCommit, BatchCommitterOptions } from './batch-committer.js';
export { PostgresSink } from './postgres/postgres-sink.js';
export type { PostgresSinkConnectOptions, PostgresSinkOptions, PostgresSinkStatus, StreamLock } from './postgres/postgres-sink.js';
export { migrations } from './postgres/migrations.js';
export type { Migration } from './postgres/migration.js';
export { runMigrations } from './postgres/run-migrations.js';
export type { MigrationsResult } from './postgres/run-migrations.js';
export { pgSqlDatabase } from '../checkpoints/pg-sql-database.js';
export type { SqlDatabase, SqlQueryable } from '../checkpoints/sql-database.js';
