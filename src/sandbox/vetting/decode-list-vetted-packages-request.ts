import { array, decodeBody, int32, object, optional, string, withDefault } from '../decode/decoders.js';

const strings = () => withDefault(array(string), () => []);

const listVettedPackagesRequest = object({
  packageMetadataFilter: optional(object({ packageIds: strings(), packageNamePrefixes: strings() })),
  topologyStateFilter: optional(object({ participantIds: strings(), synchronizerIds: strings() })),
  pageToken: withDefault(string, () => ''),
  pageSize: withDefault(int32, () => 0),
});

/** A decoded `ListVettedPackagesRequest`, relaxed-codec defaults applied. */
export type ListVettedPackagesInput = ReturnType<typeof listVettedPackagesRequest>;

/**
 * Decodes a `ListVettedPackagesRequest` body as the server's relaxed codec does: every field may be
 * missing (`{}` is a valid request; lists default to `[]`, `pageToken` to `""`, `pageSize` to 0), the two
 * filters may also be `null`, unknown properties are ignored. A wrongly typed value is the 400 text/plain
 * decode failure. Semantic checks (ids, token, page size) are {@link listVettedPackages}'s.
 */
export function decodeListVettedPackagesRequest(body: unknown): ListVettedPackagesInput {
  return decodeBody(listVettedPackagesRequest, body);
}
