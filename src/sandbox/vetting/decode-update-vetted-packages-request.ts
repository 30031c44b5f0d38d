import { array, boolean, decodeBody, empty, enumOf, int32, object, optional, string, timestamp, variant, withDefault, wrapped } from '../decode/decoders.js';

// The force flags of `UpdateVettedPackagesRequest.updateVettedPackagesForceFlags`.
const vettingForceFlags = [
  'UPDATE_VETTED_PACKAGES_FORCE_FLAG_UNSPECIFIED',
  'UPDATE_VETTED_PACKAGES_FORCE_FLAG_ALLOW_VET_INCOMPATIBLE_UPGRADES',
  'UPDATE_VETTED_PACKAGES_FORCE_FLAG_ALLOW_UNVETTED_DEPENDENCIES',
] as const;

const packageRef = object({
  packageId: withDefault(string, () => ''),
  packageName: withDefault(string, () => ''),
  packageVersion: withDefault(string, () => ''),
});
const refs = withDefault(array(packageRef), () => []);

const operation = variant('Operation', {
  Vet: wrapped(object({ packages: refs, newValidFromInclusive: optional(timestamp), newValidUntilExclusive: optional(timestamp) })),
  Unvet: wrapped(object({ packages: refs })),
  Empty: empty,
});

const serial = variant('Serial', { Prior: wrapped(int32), NoPrior: empty, Empty: empty });

const updateVettedPackagesRequest = object({
  changes: withDefault(array(object({ operation: withDefault(operation, () => ({ kind: 'Empty' as const, value: {} })) })), () => []),
  dryRun: withDefault(boolean, () => false),
  synchronizerId: withDefault(string, () => ''),
  expectedTopologySerial: optional(object({ serial: withDefault(serial, () => ({ kind: 'Empty' as const, value: {} })) })),
  updateVettedPackagesForceFlags: withDefault(array(enumOf(vettingForceFlags)), () => []),
});

/** A decoded `UpdateVettedPackagesRequest`, relaxed-codec defaults applied. */
export type UpdateVettedPackagesInput = ReturnType<typeof updateVettedPackagesRequest>;

/** A decoded package reference (`""` = not set). */
export type VettingPackageRefInput = ReturnType<typeof packageRef>;

/**
 * Decodes an `UpdateVettedPackagesRequest` body as the server's relaxed codec does: `changes` defaults to
 * `[]`, `dryRun` to false, `synchronizerId` to `""` (autodetect), a missing `operation` or `serial` to
 * `Empty`, reference attributes to `""`; `expectedTopologySerial` and the two bounds may be `null`.
 * Decode failures (400 text/plain): a wrong JSON type, an unknown variant name, a wrapper without its
 * `value` (`{"Vet": {}}`, `{"Prior": {}}`), an unknown force-flag name, a timestamp that is not an ISO
 * instant. Semantic checks are `updateVettedPackages`'s.
 */
export function decodeUpdateVettedPackagesRequest(body: unknown): UpdateVettedPackagesInput {
  return decodeBody(updateVettedPackagesRequest, body);
}
