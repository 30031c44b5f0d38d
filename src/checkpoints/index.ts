export { FileCheckpointStore } from './file-checkpoint-store.js';
export { MemoryCheckpointStore } from './memory-checkpoint-store.js';
export { parseCheckpoint } from './parse-checkpoint.js';
export { PostgresCheckpointStore } from './postgres-checkpoint-store.js';
export type { PostgresCheckpointStoreOptions, TransactionOutcome } from './postgres-checkpoint-store.js';
