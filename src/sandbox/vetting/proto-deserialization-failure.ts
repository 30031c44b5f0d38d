import { ErrorDefs } from '../errors/error-defs.js';
import { SandboxError } from '../errors/sandbox-error.js';

/**
 * The `PROTO_DESERIALIZATION_FAILURE` error (category 8, HTTP 400) the package services raise when a request
 * cannot be turned into its domain form. The cause is always "Deserialization of protobuf message failed";
 * the detail goes to `context.reason`, rendered like the server's Scala `toString` of the inner error, e.g.
 * `InvariantViolation(Some(page_size),Page size must not exceed the server's maximum of 100)`.
 */
export function protoDeserializationFailure(reason: string): SandboxError {
  return SandboxError.grpc(ErrorDefs.PROTO_DESERIALIZATION_FAILURE, 'Deserialization of protobuf message failed', {
    context: { reason },
  });
}
