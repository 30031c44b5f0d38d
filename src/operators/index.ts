/**
 * `ledger-rx/operators`: reads of the update stream as RxJS operators over any `UpdatesSource` (a
 * `LedgerClient`): `tailUpdates` (endless, resumable), `readDescending` (newest first), `trackCheckpoint`
 * (persists the position), with their options, the status side channel and the checkpoint contract; the
 * state to start from (`snapshotThenUpdates`, `liveContracts`) and the outcome of submissions
 * (`tailCompletions`, `trackCommands`, `submitAndTrack`). Pure RxJS: no I/O of their own, every delay on a
 * scheduler. Also exported from `ledger-rx`.
 *
 * @module ledger-rx/operators
 */
export type { Checkpoint, CheckpointStore } from './checkpoint.js';
export type { PagedReadOptions } from './paged-read-options.js';
export { readDescending } from './read-descending.js';
export type { ReadDescendingConfig } from './read-descending.js';
export type { RetryConfig } from '../retry/retry-config.js';
export { tailUpdates } from './tail-updates.js';
export type { TailUpdatesConfig } from './tail-updates.js';
export type { DeliveredCounts, RequestOutcome, TailStatus } from './tail-status.js';
export { trackCheckpoint } from './track-checkpoint.js';
export type { TrackCheckpointConfig } from './track-checkpoint.js';
export type { Transport } from '../updates/transport.js';
export type { UpdatesPage } from '../updates/updates-page.js';
export type { ActiveContractsPage } from '../active-contracts/active-contracts-page.js';
export type { PageReadOptions, TransportVersionInfo, UpdatesSource } from './updates-source.js';
export type { StreamConnection, UpdatesOptions } from '../updates/updates-options.js';
export type { ActiveContractsPageAnswer, ReadTransport, StreamReadOptions, TransportOption, UpdatesPageAnswer } from './deprecated-names.js';
export type { CommandSource, CompletionsReadOptions, CompletionsSource } from './completions-source.js';
export { liveContracts } from './live-contracts.js';
export type { LiveContracts, LiveContractsConfig } from './live-contracts.js';
export { activeContractsSnapshot } from './active-contracts-snapshot.js';
export { allVettedPackages } from './all-vetted-packages.js';
export type { AllVettedPackagesConfig, VettedPackagesSource } from './all-vetted-packages.js';
export type { ActiveContractsSnapshotConfig } from './active-contracts-snapshot.js';
export type { ActiveContractsSnapshotOptions, ActiveContractsSnapshotRequest, SnapshotSource } from './snapshot-source.js';
export { snapshotThenUpdates } from './snapshot-then-updates.js';
export type { SnapshotElement, SnapshotThenUpdatesConfig } from './snapshot-then-updates.js';
export { submitAndTrack } from './submit-and-track.js';
export type { CommandCommitted, SubmitAndTrackConfig } from './submit-and-track.js';
export { tailCompletions } from './tail-completions.js';
export type { TailCompletionsConfig } from './tail-completions.js';
export { trackCommands } from './track-commands.js';
export type { CommandOutcome, TrackCommandsConfig } from './track-commands.js';
