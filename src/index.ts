/**
 * ledger-rx: the update stream of a Canton participant's JSON Ledger API v2 as RxJS observables, with a
 * typed client for the operations around it.
 *
 * Subpaths: `ledger-rx/filters` (the UpdateFormat builder), `ledger-rx/operators` (tailUpdates,
 * readDescending, trackCheckpoint), `ledger-rx/sandbox` (the embedded participant). Everything but the
 * sandbox is also exported from here.
 */
export * from './checkpoints/index.js';
export * from './client/index.js';
export * from './errors/index.js';
export * from './filters/index.js';
export * from './operators/index.js';
export * from './schemas/index.js';
export * from './streams/index.js';
export { decodeUpdateElement, elementText, isOffsetCheckpoint, rememberElementText, updateOffset } from './updates/index.js';
export type { DecodeUpdateElementOptions } from './updates/index.js';
