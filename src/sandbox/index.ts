/**
 * `ledger-rx/sandbox`: the embedded participant. {@link startSandbox} serves the Canton JSON Ledger API v2
 * (HTTP and WebSocket) from memory, with parties, users, packages, submissions, the update and completion
 * streams, active contracts, pruning, authentication and injectable faults, behaving like a real
 * participant on every transport; the types of its options, of what it returns, and of the faults it can
 * inject.
 *
 * @module ledger-rx/sandbox
 */
export { startSandbox } from './start-sandbox.js';
export { DarLoadError } from './packages/load-dars.js';
export type { AllocatePartyHandleOptions, OffsetRange, Sandbox, SubmitHandleOptions, TokenOptions } from './start-sandbox.js';
export { defaultSandboxApiVersion, sandboxApiVersions } from './version/api-version-profile.js';
export type { SandboxApiVersion } from './version/api-version-profile.js';
export type { ResolvedSandboxOptions, ResponseMode, SandboxOptions } from './sandbox-options.js';
export type { SynchronizerInfo } from './state/synchronizer-info.js';
export type { JsCommandsInput } from './decode/js-commands-input.js';
export type { SubmitResult } from './submit/commit-commands.js';
export type { SubmissionFault } from './faults/submission-faults.js';
export type { UpdateFault } from './faults/update-fault.js';
export type { WebSocketSessionInfo } from './ws/serve-websocket-session.js';
export type { OpenStreamInfo } from './auth/open-stream-guard.js';
export type {
  LedgerCreatedEvent,
  LedgerExercisedEvent,
  LedgerReassignmentEvent,
  LedgerUpdate,
} from './render/summarize-update.js';
