import { ErrorDefs } from '../errors/error-defs.js';
import { SandboxError, type CantonErrorOptions } from '../errors/sandbox-error.js';

/**
 * `NO_SYNCHRONIZER_FOR_SUBMISSION` with the reason: the sandbox's stand-in for Canton's routing errors
 * (an unknown or disconnected synchronizer, submitters not hosted here, unvetted packages, contracts on
 * different synchronizers).
 */
export function noSynchronizerError(why: string, correlation: CantonErrorOptions): SandboxError {
  return SandboxError.grpc(ErrorDefs.NO_SYNCHRONIZER_FOR_SUBMISSION, `No valid synchronizer for submission found: ${why}`, correlation);
}
