export { startSandbox } from './start-sandbox.js';
export type { AllocatePartyHandleOptions, OffsetRange, Sandbox, TokenOptions } from './start-sandbox.js';
export { resolveSandboxOptions } from './sandbox-options.js';
export type { ResolvedSandboxOptions, ResponseMode, SandboxOptions } from './sandbox-options.js';
export { ParticipantState, initialLocalParties, initialRemoteParties } from './state/participant-state.js';
export type { SynchronizerInfo } from './state/participant-state.js';
export type { SubmitResult } from './ledger/submit-commands.js';
export type { UpdateFault } from './ledger/update-fault.js';
export type {
  LedgerCreatedEvent,
  LedgerExercisedEvent,
  LedgerReassignmentEvent,
  LedgerUpdate,
} from './ledger/summarize-update.js';
