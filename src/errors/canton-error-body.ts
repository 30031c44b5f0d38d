/**
 * The JSON error body of the Canton JSON Ledger API (`JsCantonError`), with all ten keys. The server
 * always sends every key, using `null` for absent values.
 */
export interface CantonErrorBody {
  readonly code: string;
  readonly cause: string;
  readonly correlationId: string | null;
  readonly traceId: string | null;
  readonly context: Readonly<Record<string, string>>;
  readonly resources: readonly (readonly string[])[];
  readonly errorCategory: number;
  readonly grpcCodeValue: number | null;
  readonly retryInfo: string | null;
  readonly definiteAnswer: boolean | null;
}
