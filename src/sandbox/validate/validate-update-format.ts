import { isPartyIdString } from '../state/ids.js';
import type { DecodedEventFormat, DecodedFilters, DecodedUpdateFormat } from '../decode/decode-get-updates-request.js';
import { requestErrors } from '../errors/request-errors.js';
import type { ApiVersionProfile } from '../version/api-version-profile.js';

/** How a release line treats a package-id reference in a filter (docs/participant-versions.md). */
export type PackageIdFilters = ApiVersionProfile['packageIdFilters'];

function checkIdentifier(id: string | undefined, field: 'templateId' | 'interfaceId', packageIds: PackageIdFilters): void {
  if (id === undefined) throw requestErrors.missingField(field);
  const pkg = id.slice(0, id.indexOf(':'));
  if (!pkg.startsWith('#') && packageIds === 'reject') {
    throw requestErrors.invalidField('packageId', `Received an identifier with package ID ${pkg}, but expected a package name.`);
  }
}

function checkFilters(filters: DecodedFilters, packageIds: PackageIdFilters): void {
  for (const { identifierFilter: f } of filters.cumulative) {
    if (f.kind === 'TemplateFilter') checkIdentifier(f.value.templateId, 'templateId', packageIds);
    else if (f.kind === 'InterfaceFilter') checkIdentifier(f.value.interfaceId, 'interfaceId', packageIds);
  }
}

/**
 * The format checks of the gRPC request validator (docs/server-behavior.md#updates-validation-order step 4, Canton's
 * `FormatValidator`) for one `EventFormat`: it must name a party or have `filtersForAnyParty`; then party
 * by party, its key must be a valid party id and its template and interface filters need an id given by
 * package *name* (`#name:Mod:Ent`; from 3.5 on a package-id reference is `INVALID_FIELD packageId`,
 * while 3.4 accepts it and resolves it to its package's name: `packageIds`); then `filtersForAnyParty`.
 */
export function validateEventFormat(format: DecodedEventFormat, packageIds: PackageIdFilters): void {
  const parties = Object.keys(format.filtersByParty);
  if (parties.length === 0 && !format.filtersForAnyParty) {
    throw requestErrors.invalidArgument('filtersByParty and filtersForAnyParty cannot be empty simultaneously');
  }
  for (const party of parties) {
    if (!isPartyIdString(party)) throw requestErrors.invalidArgument(`Invalid party in filtersByParty: "${party}" is not a valid party id`);
    checkFilters(format.filtersByParty[party] as DecodedFilters, packageIds);
  }
  if (format.filtersForAnyParty) checkFilters(format.filtersForAnyParty, packageIds);
}

/**
 * Validates an `UpdateFormat` as the gRPC request validator (Canton's `FormatValidator`) does, in its
 * order: transactions — the shape first (`UNSPECIFIED` is `MISSING_FIELD transaction_shape`,
 * `UNRECOGNIZED` is `INVALID_ARGUMENT` "transaction_shape is defined with invalid value -1"), then the
 * event format (missing: `MISSING_FIELD event_format`; then its content) —, reassignments, topology
 * parties (`INVALID_FIELD parties`). A format with none of the three parts is valid (it selects no
 * updates).
 */
export function validateUpdateFormat(format: DecodedUpdateFormat, packageIds: PackageIdFilters): void {
  const tx = format.includeTransactions;
  if (tx) {
    if (tx.transactionShape === 'TRANSACTION_SHAPE_UNSPECIFIED') throw requestErrors.missingField('transaction_shape');
    if (tx.transactionShape === 'UNRECOGNIZED') throw requestErrors.invalidArgument('transaction_shape is defined with invalid value -1');
    if (!tx.eventFormat) throw requestErrors.missingField('event_format');
    validateEventFormat(tx.eventFormat, packageIds);
  }
  if (format.includeReassignments) validateEventFormat(format.includeReassignments, packageIds);
  const topology = format.includeTopologyEvents?.includeParticipantAuthorizationEvents;
  for (const party of topology?.parties ?? []) {
    if (!isPartyIdString(party)) throw requestErrors.invalidField('parties', `"${party}" is not a valid party id`);
  }
}
