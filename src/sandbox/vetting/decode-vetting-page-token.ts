import { lfStrings } from '../state/lf-strings.js';
import { pageTokenCodec } from './page-token-codec.js';
import { protoDeserializationFailure } from './proto-deserialization-failure.js';

/** The (synchronizer, participant) pair a vetting-list page token points after. */
export interface VettingPageBound {
  readonly synchronizerId: string;
  readonly participantId: string;
}

const invalid = (suffix: string) =>
  protoDeserializationFailure(`ValueConversionError(page_token,Invalid page token for ListVettedPackagesRequest: ${suffix})`);

/**
 * Reads a vetting-list `pageToken` made by `encodeVettingPageToken`. The empty token means "from the start"
 * (`undefined`). A token that is not URL-safe Base64, not a parsable message, or whose ids are not unique
 * identifiers fails with `PROTO_DESERIALIZATION_FAILURE`, reason
 * `ValueConversionError(page_token,Invalid page token for ListVettedPackagesRequest: Failed base64 decoding)`
 * (or `…Failed proto decoding`, `…Couldn't extract token's synchronizer ID: …`, `…participant ID: …`),
 * as on the server (docs/server-behavior.md#vetting-list-validation).
 */
export function decodeVettingPageToken(token: string): VettingPageBound | undefined {
  if (token === '') return undefined;
  const decoded = pageTokenCodec.decode(token, 2);
  if ('failure' in decoded) throw invalid(decoded.failure === 'base64' ? 'Failed base64 decoding' : 'Failed proto decoding');
  const [synchronizerId = '', participantId = ''] = decoded.fields;
  const syncProblem = lfStrings.uniqueIdentifier(synchronizerId);
  if (syncProblem) throw invalid(`Couldn't extract token's synchronizer ID: ${syncProblem}`);
  const participantProblem = lfStrings.uniqueIdentifier(participantId);
  if (participantProblem) throw invalid(`Couldn't extract token's participant ID: ${participantProblem}`);
  return { synchronizerId, participantId };
}
