import { isPartyIdString } from '../state/ids.js';
import type { DecodedEventFormat, DecodedFilters, DecodedUpdateFormat } from '../decode/decode-get-updates-request.js';
import { requestErrors } from '../errors/request-errors.js';

function checkIdentifier(id: string | undefined, field: 'templateId' | 'interfaceId'): void {
  if (id === undefined) throw requestErrors.missingField(field);
  const pkg = id.slice(0, id.indexOf(':'));
  if (!pkg.startsWith('#')) {
    throw requestErrors.invalidField('packageId', `Received an identifier with package ID ${pkg}, but expected a package name.`);
  }
}

function checkFilters(filters: DecodedFilters): void {
  for (const { identifierFilter: f } of filters.cumulative) {
    if (f.kind === 'TemplateFilter') checkIdentifier(f.value.templateId, 'templateId');
    else if (f.kind === 'InterfaceFilter') checkIdentifier(f.value.interfaceId, 'interfaceId');
  }
}

/**
 * The format checks of the gRPC request validator (docs/server-behavior.md#updates-validation-order step 4, Canton's
 * `FormatValidator`) for one `EventFormat`: it must name a party or have `filtersForAnyParty`; then party
 * by party, its key must be a valid party id and its template and interface filters need an id given by
 * package *name* (`#name:Mod:Ent`; a package-id reference is `INVALID_FIELD packageId`); then
 * `filtersForAnyParty`.
 */
export function validateEventFormat(format: DecodedEventFormat): void {
  const parties = Object.keys(format.filtersByParty);
  if (parties.length === 0 && !format.filtersForAnyParty) {
    throw requestErrors.invalidArgument('filtersByParty and filtersForAnyParty cannot be empty simultaneously');
  }
  for (const party of parties) {
    if (!isPartyIdString(party)) throw requestErrors.invalidArgument(`Invalid party in filtersByParty: "${party}" is not a valid party id`);
    checkFilters(format.filtersByParty[party] as DecodedFilters);
  }
  if (format.filtersForAnyParty) checkFilters(format.filtersForAnyParty);
}

/**
 * Validates an `UpdateFormat` as the gRPC request validator (Canton's `FormatValidator`) does, in its
 * order: transactions — the shape first (`UNSPECIFIED` is `MISSING_FIELD transaction_shape`,
 * `UNRECOGNIZED` is `INVALID_ARGUMENT` "transaction_shape is defined with invalid value -1"), then the
 * event format (missing: `MISSING_FIELD event_format`; then its content) —, reassignments, topology
 * parties (`INVALID_FIELD parties`). A format with none of the three parts is valid (it selects no
 * updates).
 */
export function validateUpdateFormat(format: DecodedUpdateFormat): void {
  const tx = format.includeTransactions;
  if (tx) {
    if (tx.transactionShape === 'TRANSACTION_SHAPE_UNSPECIFIED') throw requestErrors.missingField('transaction_shape');
    if (tx.transactionShape === 'UNRECOGNIZED') throw requestErrors.invalidArgument('transaction_shape is defined with invalid value -1');
    if (!tx.eventFormat) throw requestErrors.missingField('event_format');
    validateEventFormat(tx.eventFormat);
  }
  if (format.includeReassignments) validateEventFormat(format.includeReassignments);
  const topology = format.includeTopologyEvents?.includeParticipantAuthorizationEvents;
  for (const party of topology?.parties ?? []) {
    if (!isPartyIdString(party)) throw requestErrors.invalidField('parties', `"${party}" is not a valid party id`);
  }
}
