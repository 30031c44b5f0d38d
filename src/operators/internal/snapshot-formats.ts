import { InvalidArgumentError } from '../../errors/invalid-argument-error.js';
import type { EventFormat, UpdateFormat } from '../../schemas/index.js';

/**
 * The event format of a snapshot and the update format of the updates after it, from either: an event
 * format is used for the snapshot and for transactions (ACS-delta shape, so creates and archives are what the
 * set needs) and reassignments; an update format is used as it is, the snapshot taking the event format of its
 * transactions (else of its reassignments). Throws `InvalidArgumentError` for both, neither, or an update
 * format with neither transactions nor reassignments. Pure.
 */
export function snapshotFormats(config: { readonly eventFormat?: EventFormat | undefined; readonly updateFormat?: UpdateFormat | undefined }): {
  readonly eventFormat: EventFormat;
  readonly updateFormat: UpdateFormat;
} {
  const { eventFormat, updateFormat } = config;
  if (eventFormat !== undefined && updateFormat !== undefined) throw new InvalidArgumentError('eventFormat', 'give either eventFormat or updateFormat, not both');
  if (eventFormat !== undefined) {
    return { eventFormat, updateFormat: { includeTransactions: { eventFormat, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' }, includeReassignments: eventFormat } };
  }
  if (updateFormat === undefined) throw new InvalidArgumentError('eventFormat', 'an eventFormat (or an updateFormat) is required');
  const fromUpdates = updateFormat.includeTransactions?.eventFormat ?? updateFormat.includeReassignments;
  if (fromUpdates == null) {
    throw new InvalidArgumentError('updateFormat', 'must include transactions or reassignments: the snapshot uses their event format');
  }
  return { eventFormat: fromUpdates, updateFormat };
}
