import type { Claims } from '../auth/claims.js';
import { requireUpdateReadClaims } from '../auth/require-update-read-claims.js';
import type { DecodedGetUpdatesRequest } from '../decode/decode-get-updates-request.js';
import { ErrorDefs } from '../errors/error-defs.js';
import { requestErrors } from '../errors/request-errors.js';
import { SandboxError } from '../errors/sandbox-error.js';
import { compileUpdateFormat, type CompiledUpdateFormat } from '../format/compile-update-format.js';
import type { Ledger } from '../ledger/ledger.js';
import { resolveUpdateFormat } from './resolve-update-format.js';
import { validateUpdateFormat } from './validate-update-format.js';

/** A validated `GetUpdatesRequest`, ready to read. */
export interface PreparedUpdatesRead {
  readonly beginExclusive: number;
  readonly endInclusive: number | undefined;
  readonly descending: boolean;
  readonly format: CompiledUpdateFormat;
  /** `beginExclusive == endInclusive`: the stream is empty and ends at once. */
  readonly empty: boolean;
  /** The caller's claims (the stream's ongoing authorization starts from them). */
  readonly claims: Claims;
}

/**
 * Validates a decoded `GetUpdatesRequest` in the server's order (docs/server-behavior.md#updates-validation-order, steps 2 to 6), the
 * same for the HTTP list and the WebSocket stream:
 *
 * 2. the `filter`/`verbose`/`updateFormat` combination (gRPC-shaped `INVALID_ARGUMENT`);
 * 3. authorization (`ReadAs` per party key, `ReadAsAnyParty` for any-party filters and for topology
 *    events of every party): `claims()` throws the redacted 401/403;
 * 4. offsets against the ledger end at request time (`NEGATIVE_OFFSET`, `DESCENDING_ORDER_MISSING_END`,
 *    `NON_POSITIVE_OFFSET`, `OFFSET_AFTER_LEDGER_END` for begin then end), then the update format;
 * 5. filter references (`PACKAGE_NAMES_NOT_FOUND`, `NO_TEMPLATES_…`, `NO_INTERFACE_…`, all 404), then
 *    `begin > end` ⇒ `OFFSET_OUT_OF_RANGE`;
 * 6. `beginExclusive` below the pruning offset (unless the range is empty) ⇒
 *    `PARTICIPANT_PRUNED_DATA_ACCESSED` with `earliest_offset`.
 */
export async function prepareUpdatesRead(ledger: Ledger, request: DecodedGetUpdatesRequest, claimsOf: () => Promise<Claims>): Promise<PreparedUpdatesRead> {
  const format = resolveUpdateFormat(request);
  const claims = await claimsOf();
  requireUpdateReadClaims(claims, format);

  const ledgerEnd = ledger.ledgerEnd();
  const begin = request.beginExclusive;
  const end = request.endInclusive;
  if (begin < 0) throw requestErrors.negativeOffset('begin_exclusive', begin);
  if (request.descendingOrder && end === undefined) {
    throw SandboxError.grpc(ErrorDefs.DESCENDING_ORDER_MISSING_END, 'end_inclusive is not provided when descending_order is true');
  }
  if (end !== undefined && end <= 0) {
    throw SandboxError.grpc(
      ErrorDefs.NON_POSITIVE_OFFSET,
      `Offset ${end} in end_inclusive is not a positive integer: the offset has to be either a positive integer (>0) or not defined at all`,
    );
  }
  if (begin > ledgerEnd) throw SandboxError.grpc(ErrorDefs.OFFSET_AFTER_LEDGER_END, `Begin offset (${begin}) is after ledger end (${ledgerEnd})`);
  if (end !== undefined && end > ledgerEnd) {
    throw SandboxError.grpc(ErrorDefs.OFFSET_AFTER_LEDGER_END, `End offset (${end}) is after ledger end (${ledgerEnd})`);
  }
  validateUpdateFormat(format, ledger.api.packageIdFilters);
  const compiled = compileUpdateFormat(format, ledger.catalog);
  const empty = end !== undefined && begin === end;
  if (end !== undefined && begin > end) throw SandboxError.grpc(ErrorDefs.OFFSET_OUT_OF_RANGE, `End offset ${end} is before begin offset ${begin}.`);
  const pruned = ledger.prunedOffset();
  if (!empty && begin < pruned) {
    throw SandboxError.grpc(
      ErrorDefs.PARTICIPANT_PRUNED_DATA_ACCESSED,
      `Updates request from ${begin + 1} to ${end ?? ledgerEnd} precedes pruned offset ${pruned}`,
      { context: { earliest_offset: String(pruned) } },
    );
  }
  return { beginExclusive: begin, endInclusive: end, descending: request.descendingOrder, format: compiled, empty, claims };
}
