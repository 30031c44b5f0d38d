export { startSandbox } from './start-sandbox.js';
export type { Sandbox, TokenOptions } from './start-sandbox.js';
export { resolveSandboxOptions } from './sandbox-options.js';
export type { ResolvedSandboxOptions, ResponseMode, SandboxOptions } from './sandbox-options.js';
export { ParticipantState } from './state/participant-state.js';
export type { SynchronizerInfo } from './state/participant-state.js';
