/**
 * `ledger-rx/sinks`: destinations that store the update stream exactly once with its position — one
 * {@link LedgerSink} shape, driven from `tailUpdates` by {@link BatchCommitter}: `PostgresSink`,
 * `JetStreamSink` (and `consumeLedgerFromJetStream` to read it back). Drivers (pg, the NATS client) are loaded
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
export { JetStreamSink } from './jetstream/jetstream-sink.js';
export type { JetStreamSinkConnectOptions, JetStreamSinkOptions, JetStreamSinkStatus, JetStreamStreamSettings } from './jetstream/jetstream-sink.js';
export { PublishWindow } from './jetstream/publish-window.js';
export type { PublishPort, PublishWindowOptions, PublishWindowStatus, StreamTip, WindowMessage } from './jetstream/publish-window.js';
export { consumeLedgerFromJetStream } from './jetstream/consume-ledger-from-jetstream.js';
export type { ConsumeLedgerOptions } from './jetstream/consume-ledger-from-jetstream.js';
export { findSequenceAfter } from './jetstream/find-sequence-after.js';
export { LedgerHeaders, ledgerHeaders } from './jetstream/ledger-headers.js';
export { MIXED, NONE, ledgerSubject, ledgerSubjectKind } from './jetstream/ledger-subject.js';
export type { LedgerSubjectKind } from './jetstream/ledger-subject.js';
export { subjectToken } from './jetstream/subject-token.js';
