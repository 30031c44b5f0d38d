import { LedgerApiError } from '../../errors/ledger-api-error.js';
import { LedgerRxError } from '../../errors/ledger-rx-error.js';
import { PrunedOffsetError } from '../../errors/pruned-offset-error.js';
import { RetriesExhaustedError } from '../../errors/retries-exhausted-error.js';
import { UsageError } from '../options/usage-error.js';

/**
 * A human-readable, multi-line description of an error for stderr (no trailing newline): the first line
 * is `error: <code>: <cause>`; then, when known, the correlation id, the HTTP request, the client's hint (what a
 * redacted 403 checked: docs/client.md, "What a 403 is missing"), the earliest
 * available offset of a pruned read (with the flag to restart from it), and the last error behind a
 * `RetriesExhaustedError`. Never contains a token (the client never puts one in an error).
 */
export function describeError(error: unknown): string {
  if (error instanceof UsageError) return `error: ${error.message}`;
  const lines: string[] = [];
  if (error instanceof LedgerApiError) {
    lines.push(`error: ${error.code}: ${error.cantonCause}`);
    // gRPC-side errors carry no correlation id (null, as on a real participant); their trace id is what the
    // participant's logs are searched by.
    if (error.correlationId) lines.push(`  correlation id: ${error.correlationId}`);
    else if (error.traceId) lines.push(`  correlation id: ${error.traceId} (trace id)`);
    if (error.request) lines.push(`  request: ${error.request} → HTTP ${error.status}`);
    if (error.hint !== undefined) lines.push(`  hint: ${error.hint}`);
    if (error instanceof PrunedOffsetError && error.earliestOffset !== undefined) {
      lines.push(`  earliest available offset: ${error.earliestOffset} (restart with --from ${error.earliestOffset})`);
    }
  } else if (error instanceof RetriesExhaustedError) {
    lines.push(`error: ${error.code}: gave up after ${error.attempts} retries`);
    const last = error.cause;
    if (last !== undefined) lines.push(...describeError(last).split('\n').map((l, i) => (i === 0 ? `  last ${l}` : `  ${l}`)));
  } else if (error instanceof LedgerRxError) {
    lines.push(`error: ${error.code}: ${error.message}`);
    const cause = error.cause;
    if (cause instanceof Error) lines.push(`  cause: ${cause.message}`);
  } else if (error instanceof Error) {
    lines.push(`error: ${error.message}`);
  } else {
    lines.push(`error: ${String(error)}`);
  }
  return lines.join('\n');
}
