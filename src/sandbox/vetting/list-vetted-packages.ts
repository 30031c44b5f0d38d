import type { ParticipantState } from '../participant/participant-state.js';
import type { VettedEntry, VettingStoreEntry } from '../state/vetting-store.js';
import { compareUniqueIds } from './compare-unique-ids.js';
import type { ListVettedPackagesInput } from './decode-list-vetted-packages-request.js';
import { decodeVettingPageToken, type VettingPageBound } from './decode-vetting-page-token.js';
import { encodeVettingPageToken } from './encode-vetting-page-token.js';
import { lfStrings } from '../state/lf-strings.js';
import { protoDeserializationFailure } from './proto-deserialization-failure.js';
import { toVettedPackagesJson, type VettedPackagesJson } from './to-vetted-packages-json.js';

/** The `ListVettedPackagesResponse` body. */
export interface ListVettedPackagesResponseJson {
  readonly vettedPackages: VettedPackagesJson[];
  readonly nextPageToken: string;
}

function comparePairs(a: VettingPageBound, b: VettingPageBound): number {
  return compareUniqueIds(a.synchronizerId, b.synchronizerId) || compareUniqueIds(a.participantId, b.participantId);
}

function validate(request: ListVettedPackagesInput, maxPageSize: number): { bound: VettingPageBound | undefined; pageSize: number } {
  for (const id of request.packageMetadataFilter?.packageIds ?? []) {
    const problem = lfStrings.packageId(id);
    if (problem) throw protoDeserializationFailure(`ValueConversionError(package_ids,${problem})`);
  }
  const topology = request.topologyStateFilter;
  for (const [field, ids] of [['synchronizer_ids', topology?.synchronizerIds ?? []], ['participant_ids', topology?.participantIds ?? []]] as const) {
    for (const id of ids) {
      const problem = lfStrings.uniqueIdentifier(id);
      if (problem) throw protoDeserializationFailure(`ValueConversionError(${field},${problem})`);
    }
  }
  const bound = decodeVettingPageToken(request.pageToken);
  if (request.pageSize < 0) {
    throw protoDeserializationFailure(`InvariantViolation(Some(page_size),Received the negative value ${request.pageSize}, but page_size must be non-negative)`);
  }
  if (request.pageSize > maxPageSize) {
    throw protoDeserializationFailure(`InvariantViolation(Some(page_size),Page size must not exceed the server's maximum of ${maxPageSize})`);
  }
  return { bound, pageSize: request.pageSize === 0 ? maxPageSize : request.pageSize };
}

/**
 * `POST /v2/package-vetting/list` after authentication (any authenticated caller may list), following
 * docs/server-behavior.md#vetting-list:
 *
 * 1. validation, in the server's order, each failure a `PROTO_DESERIALIZATION_FAILURE` with `context.reason`:
 *    package ids of the metadata filter, synchronizer then participant ids of the topology filter, the page
 *    token, `pageSize < 0`, `pageSize >` `maxPageSize` (not clamped). `pageSize` 0 means `maxPageSize`.
 *    Ids that are well formed but unknown are no error: they just match nothing.
 * 2. the (synchronizer, participant) pairs of every synchronizer the participant knows — including other
 *    participants' states and disconnected synchronizers — restricted by the topology filter (AND across
 *    its two fields, OR within each), sorted by synchronizer then participant id (identifier part, then
 *    namespace part), strictly after the token's pair; the first `pageSize` of them form the page.
 * 3. the metadata filter (package id in `packageIds` OR locally known name starting with one of
 *    `packageNamePrefixes`; an empty filter keeps everything) is applied to each element of the page
 *    **after** the page was cut, and elements left without packages are dropped — so a page may hold fewer
 *    than `pageSize` elements while more pages follow.
 * 4. `nextPageToken` encodes the last returned element and is non-empty whenever the page is non-empty; the
 *    walk ends with an empty page and `""`. Choice where the reference only infers the behaviour: the token
 *    is taken from the last element *returned*, so a page whose elements were all filtered out ends the
 *    walk early, as the reference describes for the real server.
 *
 * Changes are visible at once (the real server reads an approximate topology snapshot that may lag a
 * little behind an update).
 */
export function listVettedPackages(state: ParticipantState, request: ListVettedPackagesInput, maxPageSize: number): ListVettedPackagesResponseJson {
  const { bound, pageSize } = validate(request, maxPageSize);
  const synchronizers = new Set(request.topologyStateFilter?.synchronizerIds ?? []);
  const participants = new Set(request.topologyStateFilter?.participantIds ?? []);
  const candidates = state.vetting
    .entries()
    .filter((e) => (synchronizers.size === 0 || synchronizers.has(e.synchronizerId)) && (participants.size === 0 || participants.has(e.participantId)))
    .filter((e) => bound === undefined || comparePairs(e, bound) > 0)
    .sort(comparePairs);
  const page: VettingStoreEntry[] = candidates.slice(0, pageSize);

  const metadata = request.packageMetadataFilter;
  const ids = new Set(metadata?.packageIds ?? []);
  const prefixes = metadata?.packageNamePrefixes ?? [];
  const filtering = ids.size > 0 || prefixes.length > 0;
  const keep = (entry: VettedEntry): boolean => {
    if (!filtering || ids.has(entry.packageId)) return true;
    const name = state.packages.get(entry.packageId)?.name;
    return name !== undefined && prefixes.some((p) => name.startsWith(p));
  };
  const vettedPackages = page
    .map((e) => toVettedPackagesJson(state.packages, e.synchronizerId, e.participantId, e.state, keep))
    .filter((e) => !filtering || e.packages.length > 0);
  const last = vettedPackages.at(-1);
  return { vettedPackages, nextPageToken: last ? encodeVettingPageToken(last.synchronizerId, last.participantId) : '' };
}
