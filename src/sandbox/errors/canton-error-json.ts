/**
 * The `JsCantonError` body the sandbox writes: all ten fields, always present, `null` for an absent
 * optional (docs/server-behavior.md#error-body). The same object is the body of an HTTP error answer and the payload
 * of a WebSocket error frame.
 */
export interface CantonErrorJson {
  readonly code: string;
  readonly cause: string;
  readonly correlationId: string | null;
  readonly traceId: string | null;
  readonly context: Readonly<Record<string, string>>;
  readonly resources: readonly (readonly [string, string])[];
  readonly errorCategory: number;
  readonly grpcCodeValue: number | null;
  readonly retryInfo: string | null;
  readonly definiteAnswer: boolean | null;
}
