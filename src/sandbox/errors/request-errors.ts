import { ErrorDefs } from './error-defs.js';
import { SandboxError, type CantonErrorOptions } from './sandbox-error.js';

/**
 * Builders for the gRPC-side request errors, with the server's cause texts
 * (`RequestValidationErrors`): `MISSING_FIELD` ("The submitted command is missing a mandatory field: x",
 * context `field_name`), `INVALID_FIELD` ("... has a field with invalid value: Invalid field x: why"),
 * `INVALID_ARGUMENT` ("The submitted request has invalid arguments: why"). `options` passes the
 * correlation id of command submissions.
 */
export const requestErrors = {
  missingField(field: string, options: CantonErrorOptions = {}): SandboxError {
    return SandboxError.grpc(ErrorDefs.MISSING_FIELD, `The submitted command is missing a mandatory field: ${field}`, {
      ...options,
      context: { field_name: field, ...options.context },
    });
  },

  invalidField(field: string, message: string, options: CantonErrorOptions = {}): SandboxError {
    return SandboxError.grpc(ErrorDefs.INVALID_FIELD, `The submitted command has a field with invalid value: Invalid field ${field}: ${message}`, options);
  },

  invalidArgument(reason: string, options: CantonErrorOptions = {}): SandboxError {
    return SandboxError.grpc(ErrorDefs.INVALID_ARGUMENT, `The submitted request has invalid arguments: ${reason}`, options);
  },

  /** `INVALID_ARGUMENT` raised by the JSON layer itself (transcoding): JSON-layer body shape. */
  jsonInvalidArgument(reason: string): SandboxError {
    return SandboxError.jsonLayer(ErrorDefs.INVALID_ARGUMENT, `The submitted request has invalid arguments: ${reason}`);
  },

  /** `NEGATIVE_OFFSET` for `field`. */
  negativeOffset(field: string, offset: number, options: CantonErrorOptions = {}): SandboxError {
    return SandboxError.grpc(
      ErrorDefs.NEGATIVE_OFFSET,
      `Offset ${offset} in ${field} is a negative integer: the offset in ${field} field has to be a non-negative integer (>=0)`,
      options,
    );
  },

  /** `CONTRACT_NOT_FOUND` with the contract id as resource. */
  contractNotFound(contractId: string, options: CantonErrorOptions = {}): SandboxError {
    return SandboxError.grpc(ErrorDefs.CONTRACT_NOT_FOUND, `Contract could not be found with id ${contractId}`, {
      ...options,
      resources: [['CONTRACT_ID', contractId]],
    });
  },
};
