/**
 * `ledger-rx/postgres`: PostgreSQL, as a checkpoint store ({@link PostgresCheckpointStore}: a checkpoint
 * committed in the same transaction as your own writes) and as a sink ({@link PostgresSink}: every update
 * stored exactly once with its offset), with the sink's schema migrations. Its declarations use `pg`'s
 * types (`Pool`, `PoolClient`), which `@types/pg` provides; `pg` itself is loaded only when a store or a
 * sink connects, and `import 'ledger-rx'` never loads or mentions it. Both are optional peer dependencies
 * of ledger-rx: importing this entry point without `pg` throws a `PeerDependencyMissingError` that names it
 * (docs/packaging.md).
 *
 * @module ledger-rx/postgres
 */
import { requirePeers } from '../../errors/require-peers.js';

requirePeers('ledger-rx/postgres', ['pg'], (specifier) => import.meta.resolve(specifier));

export { PostgresCheckpointStore } from '../../checkpoints/postgres-checkpoint-store.js';
export type { PostgresCheckpointStoreOptions, TransactionOutcome } from '../../checkpoints/postgres-checkpoint-store.js';
export { PostgresSink } from './postgres-sink.js';
export type { PostgresSinkConnectOptions, PostgresSinkOptions, PostgresSinkStatus, ScopeChangeOptions, ScopeChangeOutcome, StoredScope, StreamLock } from './postgres-sink.js';
export { sameScope, streamScopeChange } from './stream-scope.js';
export { editScope } from './edit-scope.js';
export type { ScopeEdit } from './edit-scope.js';
export { requestScopeChange } from './request-scope-change.js';
export type { ScopeChangeRequest, ScopeChangeRequested } from './request-scope-change.js';
export { scopeChannel } from './scope-channel.js';
export { watchScopeRequests } from './watch-scope-requests.js';
export type { StreamScope, StreamScopeChange } from './stream-scope.js';
export type { StreamLease } from './stream-lease.js';
export type { TypedViewOutcome } from './create-typed-views.js';
export { migrations } from './migrations.js';
export type { Migration } from './migration.js';
export { runMigrations } from './run-migrations.js';
export { storeChannel } from './store-channel.js';
export { watchCommittedOffsets } from './watch-committed-offsets.js';
export type { CommittedOffsetsSource, WatchCommittedOffsetsOptions, WatchStatus } from './watch-committed-offsets.js';
export type { MigrationsResult } from './run-migrations.js';
export { pgSqlDatabase } from '../../checkpoints/pg-sql-database.js';
export type { SqlDatabase, SqlQueryable, SqlScriptStep } from '../../checkpoints/sql-database.js';
