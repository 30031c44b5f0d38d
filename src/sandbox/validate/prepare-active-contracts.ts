import type { Claims } from '../auth/claims.js';
import { requireEventFormatReadClaims } from '../auth/require-event-format-read-claims.js';
import type { DecodedGetActiveContractsPageRequest } from '../decode/decode-get-active-contracts-page-request.js';
import type { DecodedGetActiveContractsRequest } from '../decode/decode-get-active-contracts-request.js';
import type { DecodedEventFormat } from '../decode/decode-get-updates-request.js';
import { ErrorDefs } from '../errors/error-defs.js';
import { requestErrors } from '../errors/request-errors.js';
import { SandboxError } from '../errors/sandbox-error.js';
import { checkFilterReferences } from '../format/check-filter-references.js';
import { compileEventFormat, type CompiledEventFormat } from '../format/compile-event-format.js';
import type { Ledger } from '../ledger/ledger.js';
import type { ParticipantState } from '../participant/participant-state.js';
import { acsTokens, acsTokenVersion } from './acs-tokens.js';
import { validateEventFormat } from './validate-update-format.js';

/** A validated active-contracts read. */
export interface PreparedActiveContracts {
  readonly activeAtOffset: number;
  readonly format: CompiledEventFormat;
  /** Entries at or before this position (1-based) were delivered already (a continuation); 0 = from the start. */
  readonly after: number;
  /** The checksum of the continuation tokens of this read's elements. */
  readonly checksum: Uint8Array;
  readonly claims: Claims;
}

const useEither = 'Please use either backwards compatible arguments (filter and verbose) or event_format';
const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);

function invalidContinuation(): SandboxError {
  return SandboxError.grpc(
    ErrorDefs.INVALID_CONTINUATION_TOKEN,
    'The submitted command contains an invalid continuation token. Tokens used in ACS requests must be taken from a valid GetActiveContractsResponse and used with the same EventFormat settings, with the same Canton participant running the same Canton version.',
  );
}

function invalidPageToken(message: string): SandboxError {
  return SandboxError.grpc(
    ErrorDefs.INVALID_ACS_PAGE_TOKEN,
    `The submitted command contains an invalid page token. Tokens used in ACS requests must be taken from a valid GetActiveContractsPageResponse and used with the same EventFormat settings, with the same Canton participant running the same Canton version. ${message}`,
  );
}

/** The position a continuation token points at; `fieldName`'s error for bytes that are no token, `INVALID_CONTINUATION_TOKEN` for a foreign one. */
function pointerOf(bytes: Uint8Array, expected: Uint8Array, fieldName: string, what: string): number {
  const pointer = acsTokens.parseContinuation(bytes);
  if (pointer === 'unparsable') throw requestErrors.invalidField(fieldName, `Invalid continuation token for ${what}`);
  if (pointer === 'no-pointer' || !sameBytes(pointer.checksum, expected)) throw invalidContinuation();
  return pointer.position;
}

/** The index service's checks: filter references, then the offset against the ledger end and the pruning offset. */
function indexChecks(ledger: Ledger, eventFormat: DecodedEventFormat, activeAt: number): CompiledEventFormat {
  checkFilterReferences([eventFormat], ledger.catalog);
  const end = ledger.ledgerEnd();
  if (activeAt > end) throw SandboxError.grpc(ErrorDefs.OFFSET_AFTER_LEDGER_END, `active_at_offset offset (${activeAt}) is after ledger end (${end})`);
  const pruned = ledger.prunedOffset();
  if (activeAt > 0 && activeAt < pruned) {
    throw SandboxError.grpc(ErrorDefs.PARTICIPANT_PRUNED_DATA_ACCESSED, `Active contracts request at offset ${activeAt} precedes pruned offset ${pruned}`, {
      context: { earliest_offset: String(pruned) },
    });
  }
  return compileEventFormat(eventFormat, ledger.catalog);
}

/**
 * Validates `/v2/state/active-contracts` (list and WebSocket) in the server's order
 * (JsStateService.scala:151-191, ApiStateService.scala:68-121, IndexServiceImpl.scala:342-382,947-961 at
 * e5f40da5e): the JSON layer's `filter`/`verbose`/`eventFormat` combination (`INVALID_ARGUMENT`; a legacy
 * `filter` becomes the event format), the read claims of the event format (redacted 401/403), the format
 * rules, the `streamContinuationToken` (`INVALID_FIELD` when unreadable, `INVALID_CONTINUATION_TOKEN` when
 * made for another request or participant), `activeAtOffset` ≥ 0 (`NEGATIVE_OFFSET`), the filter
 * references (404s), `activeAtOffset` ≤ the ledger end (`OFFSET_AFTER_LEDGER_END`) and not below the
 * pruning offset (`PARTICIPANT_PRUNED_DATA_ACCESSED` with `earliest_offset`). `activeAtOffset` 0 is the
 * empty set.
 */
export async function prepareActiveContracts(state: ParticipantState, request: DecodedGetActiveContractsRequest, claimsOf: () => Promise<Claims>): Promise<PreparedActiveContracts> {
  const { eventFormat: given, filter, verbose } = request;
  if (given && filter) throw requestErrors.invalidArgument(`Both event_format and filter are set. ${useEither}, but not both.`);
  if (given && verbose) throw requestErrors.invalidArgument(`Both event_format and verbose are set. ${useEither}, but not both.`);
  if (!given && !filter) throw requestErrors.invalidArgument(`Either filter/verbose or event_format is required. ${useEither}.`);
  const eventFormat: DecodedEventFormat = given ?? { filtersByParty: filter?.filtersByParty ?? {}, filtersForAnyParty: filter?.filtersForAnyParty, verbose };
  const claims = await claimsOf();
  requireEventFormatReadClaims(claims, eventFormat);
  validateEventFormat(eventFormat, state.api.packageIdFilters);
  const activeAt = request.activeAtOffset;
  const checksum = acsTokens.streamChecksum(activeAt, eventFormat, state.participantId);
  const after = request.streamContinuationToken === undefined ? 0 : pointerOf(request.streamContinuationToken, checksum, 'stream_continuation_token', 'GetActiveContractsRequest');
  if (activeAt < 0) throw requestErrors.negativeOffset('active_at_offset', activeAt);
  const format = indexChecks(state.ledger, eventFormat, activeAt);
  return { activeAtOffset: activeAt, format, after, checksum, claims };
}

/** A validated active-contracts page request. */
export interface PreparedActiveContractsPage extends PreparedActiveContracts {
  readonly maxPageSize: number;
  readonly requestChecksum: Uint8Array;
  readonly participantChecksum: Uint8Array;
}

/**
 * Validates `GET /v2/state/active-contracts-page` (ApiStateService.scala:123-200, AcsPageToken.scala:50-85
 * at e5f40da5e): the read claims of the event format, the event format (`MISSING_FIELD event_format`, then
 * its rules), `maxPageSize` (1..`maxAcsPageSize`, default `defaultAcsPageSize`), the page token
 * (`INVALID_FIELD page_token` when unreadable; `INVALID_ACS_PAGE_TOKEN` from another participant, another
 * version, or another `activeAtOffset`/event format), `activeAtOffset` ≥ 0; the offset is the token's, else
 * the request's, else the ledger end; then the checks of the list.
 */
export async function prepareActiveContractsPage(
  state: ParticipantState,
  request: DecodedGetActiveContractsPageRequest,
  claimsOf: () => Promise<Claims>,
): Promise<PreparedActiveContractsPage> {
  const claims = await claimsOf();
  requireEventFormatReadClaims(claims, request.eventFormat);
  const eventFormat = request.eventFormat;
  if (!eventFormat) throw requestErrors.missingField('event_format');
  validateEventFormat(eventFormat, state.api.packageIdFilters);
  const size = request.maxPageSize;
  const max = state.options.maxAcsPageSize;
  if (size !== undefined && size <= 0) throw requestErrors.invalidArgument(`Requested page size must be positive, but got ${size}`);
  if (size !== undefined && size > max) throw requestErrors.invalidArgument(`Requested page size must not exceed ${max}, but got ${size}`);
  const requestChecksum = acsTokens.pageRequestChecksum(request.activeAtOffset, eventFormat);
  const participantChecksum = acsTokens.participantChecksum(state.participantId);
  let tokenOffset: number | undefined;
  let after = 0;
  if (request.pageToken !== undefined) {
    const token = acsTokens.parsePage(request.pageToken);
    if (!token) throw requestErrors.invalidField('page_token', 'Invalid page token for GetActiveContractsPageRequest');
    if (!sameBytes(token.participantChecksum, participantChecksum)) throw invalidPageToken('The page token was prepared by a different participant.');
    if (token.version !== acsTokenVersion) throw invalidPageToken('The page token was prepared with different page API version.');
    if (!sameBytes(token.requestChecksum, requestChecksum)) throw invalidPageToken('The page token was prepared with different event_format or active_at_offset.');
    tokenOffset = token.activeAtOffset;
    after = pointerOf(token.continuation, acsTokens.emptyChecksum, 'page_token', 'GetActiveContractsPageRequest') - 1;
  }
  if (request.activeAtOffset !== undefined && request.activeAtOffset < 0) throw requestErrors.negativeOffset('active_at_offset', request.activeAtOffset);
  const activeAt = tokenOffset ?? request.activeAtOffset ?? state.ledger.ledgerEnd();
  const format = indexChecks(state.ledger, eventFormat, activeAt);
  return { activeAtOffset: activeAt, format, after, checksum: acsTokens.emptyChecksum, claims, maxPageSize: size ?? state.options.defaultAcsPageSize, requestChecksum, participantChecksum };
}
