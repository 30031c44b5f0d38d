/**
 * The Canton error categories (docs/server-behavior.md#error-categories): id → gRPC code, HTTP status, retry hint and
 * whether the server redacts the details. Used by the client to decide `retryable` and by the sandbox
 * to build faithful error bodies.
 */
export interface ErrorCategoryInfo {
  readonly id: number;
  readonly name: string;
  readonly grpcCode: number;
  readonly httpStatus: number;
  /** The Scala duration text the server puts in `retryInfo`, or `null` when the category is not retryable. */
  readonly retryInfo: string | null;
  readonly redacted: boolean;
}

const table: readonly ErrorCategoryInfo[] = [
  { id: 1, name: 'TransientServerFailure', grpcCode: 14, httpStatus: 503, retryInfo: '1 second', redacted: false },
  { id: 2, name: 'ContentionOnSharedResources', grpcCode: 10, httpStatus: 409, retryInfo: '1 second', redacted: false },
  { id: 3, name: 'DeadlineExceededRequestStateUnknown', grpcCode: 4, httpStatus: 504, retryInfo: '1 second', redacted: false },
  { id: 4, name: 'SystemInternalAssumptionViolated', grpcCode: 13, httpStatus: 500, retryInfo: null, redacted: true },
  { id: 5, name: 'SecurityAlert', grpcCode: 3, httpStatus: 400, retryInfo: null, redacted: true },
  { id: 6, name: 'AuthInterceptorInvalidAuthenticationCredentials', grpcCode: 16, httpStatus: 401, retryInfo: null, redacted: true },
  { id: 7, name: 'InsufficientPermission', grpcCode: 7, httpStatus: 403, retryInfo: null, redacted: true },
  { id: 8, name: 'InvalidIndependentOfSystemState', grpcCode: 3, httpStatus: 400, retryInfo: null, redacted: false },
  { id: 9, name: 'InvalidGivenCurrentSystemStateOther', grpcCode: 9, httpStatus: 400, retryInfo: null, redacted: false },
  { id: 10, name: 'InvalidGivenCurrentSystemStateResourceExists', grpcCode: 6, httpStatus: 409, retryInfo: null, redacted: false },
  { id: 11, name: 'InvalidGivenCurrentSystemStateResourceMissing', grpcCode: 5, httpStatus: 404, retryInfo: null, redacted: false },
  { id: 12, name: 'InvalidGivenCurrentSystemStateSeekAfterEnd', grpcCode: 11, httpStatus: 400, retryInfo: '1 second', redacted: false },
  { id: 14, name: 'InternalUnsupportedOperation', grpcCode: 12, httpStatus: 501, retryInfo: null, redacted: true },
];

const byId = new Map(table.map((c) => [c.id, c]));

/** Looks up a category by id; `undefined` for `-1` (redacted or non-Canton) and unknown ids. */
export function errorCategory(id: number): ErrorCategoryInfo | undefined {
  return byId.get(id);
}

/** HTTP status for a gRPC status code, as the JSON API maps it (docs/server-behavior.md#http-status). */
export function httpStatusForGrpcCode(grpcCode: number | null | undefined): number {
  switch (grpcCode) {
    case 0: return 200;
    case 1: return 499;
    case 3: case 9: case 11: return 400;
    case 4: return 504;
    case 5: return 404;
    case 6: case 10: return 409;
    case 7: return 403;
    case 8: return 429;
    case 12: return 501;
    case 14: return 503;
    case 16: return 401;
    default: return 500;
  }
}
