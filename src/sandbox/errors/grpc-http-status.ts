// gRPC code → HTTP status, indexed by the code (0..16), as the JSON layer's plain mapping does it
// (docs/server-behavior.md#http-status): OK 200, CANCELLED 499, UNKNOWN 500, INVALID_ARGUMENT 400, DEADLINE_EXCEEDED 504,
// NOT_FOUND 404, ALREADY_EXISTS 409, PERMISSION_DENIED 403, RESOURCE_EXHAUSTED 429, FAILED_PRECONDITION 400,
// ABORTED 409, OUT_OF_RANGE 400, UNIMPLEMENTED 501, INTERNAL 500, UNAVAILABLE 503, DATA_LOSS 500,
// UNAUTHENTICATED 401.
const byCode: readonly number[] = [200, 499, 500, 400, 504, 404, 409, 403, 429, 400, 409, 400, 501, 500, 503, 500, 401];

/**
 * The HTTP status the participant's JSON API answers for an error with gRPC status `code`. Codes outside
 * 0..16 (UNRECOGNIZED) are 500, like UNKNOWN.
 */
export function grpcHttpStatus(code: number): number {
  return byCode[code] ?? 500;
}
