/** How the participant renders errors of one Canton error category. */
export interface CategoryRule {
  /** The gRPC status code errors of the category travel with. */
  readonly grpcCode: number;
  /** The `retryInfo` text the JSON layer prints (a Scala duration), or `null` for categories that are not retried. */
  readonly retryInfo: string | null;
}

const oneSecond = '1 second';

// Category id → [gRPC code, retry hint]. Read from the server's ErrorCategory definitions
// (docs/server-behavior.md#error-categories); ids 5 and 13 are not raised by the sandbox (13 has no gRPC code at all).
const rules: Readonly<Record<number, readonly [number, string | null]>> = {
  1: [14, oneSecond], // TransientServerFailure → UNAVAILABLE
  2: [10, oneSecond], // ContentionOnSharedResources → ABORTED
  3: [4, oneSecond], // DeadlineExceededRequestStateUnknown → DEADLINE_EXCEEDED
  4: [13, null], // SystemInternalAssumptionViolated → INTERNAL
  5: [3, null], // SecurityAlert → INVALID_ARGUMENT
  6: [16, null], // AuthInterceptorInvalidAuthenticationCredentials → UNAUTHENTICATED
  7: [7, null], // InsufficientPermission → PERMISSION_DENIED
  8: [3, null], // InvalidIndependentOfSystemState → INVALID_ARGUMENT
  9: [9, null], // InvalidGivenCurrentSystemStateOther → FAILED_PRECONDITION
  10: [6, null], // InvalidGivenCurrentSystemStateResourceExists → ALREADY_EXISTS
  11: [5, null], // InvalidGivenCurrentSystemStateResourceMissing → NOT_FOUND
  12: [11, oneSecond], // InvalidGivenCurrentSystemStateSeekAfterEnd → OUT_OF_RANGE
  14: [12, null], // InternalUnsupportedOperation → UNIMPLEMENTED
};

/**
 * The sandbox's own table of error categories: the gRPC code and retry hint of category `id`, as the
 * real participant attaches them. `undefined` for an id the server does not define (the caller then
 * renders gRPC UNKNOWN, 2). Kept apart from the client's table on purpose: client and sandbox are two
 * independent readings of the server, so a slip in one cannot hide the same slip in the other.
 */
export function categoryRule(id: number): CategoryRule | undefined {
  const rule = rules[id];
  return rule === undefined ? undefined : { grpcCode: rule[0], retryInfo: rule[1] };
}
