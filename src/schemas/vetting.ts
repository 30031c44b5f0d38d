import { z } from 'zod';
import { built, lazySchema } from './lazy-schema.js';
import { wireSchema, type WireSchema } from './wire-schema.js';
import { Empty } from './common.js';
import { Int32, Timestamp } from './primitives.js';
import { variant, wrapped } from './variant.js';

/** `PackageMetadataFilter`: package ids, or package-name prefixes (OR-ed). */
export const PackageMetadataFilter: WireSchema<PackageMetadataFilter> = wireSchema(() => z.looseObject({
  packageIds: z.array(z.string()).nullish(),
  packageNamePrefixes: z.array(z.string()).nullish(),
}));

/** `TopologyStateFilter`: participants and synchronizers (AND across fields, OR within). */
export const TopologyStateFilter: WireSchema<TopologyStateFilter> = wireSchema(() => z.looseObject({
  participantIds: z.array(z.string()).nullish(),
  synchronizerIds: z.array(z.string()).nullish(),
}));

/** `ListVettedPackagesRequest`: `pageSize` 0 means the server maximum (100 by default). */
export const ListVettedPackagesRequest: WireSchema<ListVettedPackagesRequest> = wireSchema(() => z.looseObject({
  packageMetadataFilter: built(PackageMetadataFilter).nullish(),
  topologyStateFilter: built(TopologyStateFilter).nullish(),
  pageToken: z.string().nullish(),
  pageSize: built(Int32).nullish(),
}));

/** `VettedPackage`: `packageName`/`packageVersion` are `""` when the package is not uploaded locally. */
export const VettedPackage: WireSchema<VettedPackage> = wireSchema(() => z.looseObject({
  packageId: z.string(),
  validFromInclusive: built(Timestamp).nullish(),
  validUntilExclusive: built(Timestamp).nullish(),
  packageName: z.string().nullish(),
  packageVersion: z.string().nullish(),
}));

/** `VettedPackages`: the vetting state of one (synchronizer, participant) pair. */
export const VettedPackages: WireSchema<VettedPackages> = wireSchema(() => z.looseObject({
  packages: z.array(built(VettedPackage)),
  participantId: z.string(),
  synchronizerId: z.string(),
  topologySerial: built(Int32),
}));

/**
 * `ListVettedPackagesResponse`. `nextPageToken` is non-empty whenever the page is non-empty; the paging
 * ends with an empty page.
 */
export const ListVettedPackagesResponse: WireSchema<ListVettedPackagesResponse> = wireSchema(() => z.looseObject({
  vettedPackages: z.array(built(VettedPackages)).nullish(),
  nextPageToken: z.string().nullish(),
}));

/**
 * `VettedPackagesRef`: the server accepts only {id}, {name}, {name, version} or {id, name, version}.
 */
export const VettedPackagesRef: WireSchema<VettedPackagesRef> = wireSchema(() => z.looseObject({
  packageId: z.string().nullish(),
  packageName: z.string().nullish(),
  packageVersion: z.string().nullish(),
}));

/** `Vet` (payload): vet packages with new bounds (an omitted bound is unbounded). */
export const Vet: WireSchema<Vet> = wireSchema(() => z.looseObject({
  packages: z.array(built(VettedPackagesRef)),
  newValidFromInclusive: built(Timestamp).nullish(),
  newValidUntilExclusive: built(Timestamp).nullish(),
}));

/** `Unvet` (payload). */
export const Unvet: WireSchema<Unvet> = wireSchema(() => z.looseObject({
  packages: z.array(built(VettedPackagesRef)),
}));

/** The alternatives of `Operation`. */
export const operationCases = { Empty, Unvet: lazySchema(() => wrapped(built(Unvet))), Vet: lazySchema(() => wrapped(built(Vet))) };

/** `Operation`: `Vet`, `Unvet`, or `Empty` (rejected by the server). */
export const Operation: WireSchema<Operation> = wireSchema(() => variant('Operation', operationCases, { open: false }));

/** `VettedPackagesChange`. */
export const VettedPackagesChange: WireSchema<VettedPackagesChange> = wireSchema(() => z.looseObject({
  operation: built(Operation).nullish(),
}));

/** `Prior` (payload of the `Prior` alternative): the expected current serial. */
export const Prior: WireSchema<Prior> = wireSchema(() => z.looseObject({ value: built(Int32) }));

/** `NoPrior`: expect no vetting state yet. */
export const NoPrior: WireSchema<NoPrior> = wireSchema(() => z.looseObject({}));

/** The alternatives of `Serial`. `Prior` is `{"Prior": {"value": n}}`. */
export const serialCases = { Empty, NoPrior, Prior };

/** `Serial`: `Prior`, `NoPrior`, or `Empty` (no check). */
export const Serial: WireSchema<Serial> = wireSchema(() => variant('Serial', serialCases, { open: false }));

/** `PriorTopologySerial`. */
export const PriorTopologySerial: WireSchema<PriorTopologySerial> = wireSchema(() => z.looseObject({ serial: built(Serial).nullish() }));

/** The force-flag enum of a vetting update. */
export const UpdateVettedPackagesForceFlag: WireSchema<UpdateVettedPackagesForceFlag> = wireSchema(() => z.enum([
  'UPDATE_VETTED_PACKAGES_FORCE_FLAG_UNSPECIFIED',
  'UPDATE_VETTED_PACKAGES_FORCE_FLAG_ALLOW_VET_INCOMPATIBLE_UPGRADES',
  'UPDATE_VETTED_PACKAGES_FORCE_FLAG_ALLOW_UNVETTED_DEPENDENCIES',
]));

/** `UpdateVettedPackagesRequest`: an empty `synchronizerId` lets the server autodetect it. */
export const UpdateVettedPackagesRequest: WireSchema<UpdateVettedPackagesRequest> = wireSchema(() => z.looseObject({
  changes: z.array(built(VettedPackagesChange)),
  dryRun: z.boolean().nullish(),
  synchronizerId: z.string().nullish(),
  expectedTopologySerial: built(PriorTopologySerial).nullish(),
  updateVettedPackagesForceFlags: z.array(built(UpdateVettedPackagesForceFlag)).nullish(),
}));

/** `UpdateVettedPackagesResponse`: `pastVettedPackages` is `null` when there was no state before. */
export const UpdateVettedPackagesResponse: WireSchema<UpdateVettedPackagesResponse> = wireSchema(() => z.looseObject({
  pastVettedPackages: built(VettedPackages).nullish(),
  newVettedPackages: built(VettedPackages),
}));

// ---- The wire types of this file, generated by scripts/generate-wire-types.mjs from the spec (docs/wire-types.md): do not edit below. ----

/**
 * Filter the VettedPackages by package metadata.
 *
 * A PackageMetadataFilter without package_ids and without package_name_prefixes
 * matches any vetted package.
 *
 * Non-empty fields specify candidate values of which at least one must match.
 * If both fields are set, then a candidate is returned if it matches one of the fields.
 */
export interface PackageMetadataFilter {
  /**
   * If this list is non-empty, any vetted package with a package ID in this
   * list will match the filter.
   *
   * Optional: can be empty
   */
  packageIds?: string[] | null | undefined;
  /**
   * If this list is non-empty, any vetted package with a name matching at least
   * one prefix in this list will match the filter.
   *
   * Optional: can be empty
   */
  packageNamePrefixes?: string[] | null | undefined;
}

/**
 * Filter the vetted packages by the participant and synchronizer that they are
 * hosted on.
 *
 * Empty fields are ignored, such that a `TopologyStateFilter` without
 * participant_ids and without synchronizer_ids matches a vetted package hosted
 * on any participant and synchronizer.
 *
 * Non-empty fields specify candidate values of which at least one must match.
 * If both fields are set then at least one candidate value must match from each
 * field.
 */
export interface TopologyStateFilter {
  /**
   * If this list is non-empty, only vetted packages hosted on participants
   * listed in this field match the filter.
   * Query the current Ledger API's participant's ID via the public
   * `GetParticipantId` command in `PartyManagementService`.
   *
   * Optional: can be empty
   */
  participantIds?: string[] | null | undefined;
  /**
   * If this list is non-empty, only vetted packages from the topology state of
   * the synchronizers in this list match the filter.
   *
   * Optional: can be empty
   */
  synchronizerIds?: string[] | null | undefined;
}

export interface ListVettedPackagesRequest {
  /**
   * The package metadata filter the returned vetted packages set must satisfy.
   */
  packageMetadataFilter?: PackageMetadataFilter | null | undefined;
  /**
   * The topology filter the returned vetted packages set must satisfy.
   */
  topologyStateFilter?: TopologyStateFilter | null | undefined;
  /**
   * Pagination token to determine the specific page to fetch. Using the token
   * guarantees that `VettedPackages` on a subsequent page are all greater
   * (`VettedPackages` are sorted by synchronizer ID then participant ID) than
   * the last `VettedPackages` on a previous page.
   *
   * The server does not store intermediate results between calls chained by a
   * series of page tokens. As a consequence, if new vetted packages are being
   * added and a page is requested twice using the same token, more packages can
   * be returned on the second call.
   *
   * Leave unspecified (i.e. as empty string) to fetch the first page.
   */
  pageToken?: string | null | undefined;
  /**
   * Maximum number of `VettedPackages` results to return in a single page.
   *
   * If the page_size is unspecified (i.e. left as 0), the server will decide
   * the number of results to be returned.
   *
   * If the page_size exceeds the maximum supported by the server, an
   * error will be returned.
   *
   * To obtain the server's maximum consult the PackageService descriptor
   * available in the VersionService.
   */
  pageSize?: number | null | undefined;
}

/**
 * A package that is vetting on a given participant and synchronizer,
 * modelled after `VettedPackage` in `topology.proto <https://github.com/digital-asset/canton/blob/main/community/base/src/main/protobuf/com/digitalasset/canton/protocol/v30/topology.proto#L206>`_,
 * enriched with the package name and version.
 *
 * `packageName` and `packageVersion` are `""` when the package is not uploaded to this participant.
 */
export interface VettedPackage {
  /**
   * Package ID of this package
   */
  packageId: string;
  /**
   * The time from which this package is vetted. Empty if vetting time has no
   * lower bound.
   */
  validFromInclusive?: string | null | undefined;
  /**
   * The time until which this package is vetted. Empty if vetting time has no
   * upper bound.
   */
  validUntilExclusive?: string | null | undefined;
  /**
   * Name of this package.
   * Only available if the package has been uploaded to the current participant.
   */
  packageName?: string | null | undefined;
  /**
   * Version of this package.
   * Only available if the package has been uploaded to the current participant.
   */
  packageVersion?: string | null | undefined;
}

/**
 * The list of packages vetted on a given participant and synchronizer, modelled
 * after `VettedPackages` in `topology.proto <https://github.com/digital-asset/canton/blob/main/community/base/src/main/protobuf/com/digitalasset/canton/protocol/v30/topology.proto#L206>`_.
 * The list only contains packages that matched a filter in the query that
 * originated it.
 */
export interface VettedPackages {
  /**
   * Sorted by package_name and package_version where known, and package_id as a
   * last resort.
   *
   * Required: must be non-empty
   */
  packages: VettedPackage[];
  /**
   * Participant on which these packages are vetted.
   */
  participantId: string;
  /**
   * Synchronizer on which these packages are vetted.
   */
  synchronizerId: string;
  /**
   * Serial of last `VettedPackages` topology transaction of this participant
   * and on this synchronizer.
   */
  topologySerial: number;
}

/**
 * `nextPageToken` is non-empty whenever the page is; the paging ends with an empty page.
 */
export interface ListVettedPackagesResponse {
  /**
   * All `VettedPackages` that contain at least one `VettedPackage` matching
   * both a `PackageMetadataFilter` and a `TopologyStateFilter`.
   * Sorted by synchronizer_id then participant_id.
   *
   * Optional: can be empty
   */
  vettedPackages?: VettedPackages[] | null | undefined;
  /**
   * Pagination token to retrieve the next page.
   * Empty string if there are no further results.
   */
  nextPageToken?: string | null | undefined;
}

/**
 * A reference to identify one or more packages.
 *
 * A reference matches a package if its `package_id` matches the package's ID,
 * its `package_name` matches the package's name, and its `package_version`
 * matches the package's version. If an attribute in the reference is left
 * unspecified (i.e. as an empty string), that attribute is treated as a
 * wildcard. At a minimum, `package_id` or the `package_name` must be
 * specified.
 *
 * If a reference does not match any package, the reference is considered
 * unresolved and the entire update request is rejected.
 *
 * The server accepts only `{packageId}`, `{packageName}`, `{packageName, packageVersion}` or all three.
 */
export interface VettedPackagesRef {
  /**
   * Package's package id must be the same as this field.
   */
  packageId?: string | null | undefined;
  /**
   * Package's name must be the same as this field.
   */
  packageName?: string | null | undefined;
  /**
   * Package's version must be the same as this field.
   */
  packageVersion?: string | null | undefined;
}

/**
 * Set vetting bounds of a list of packages. Packages that were not previously
 * vetted have their bounds added, previous vetting bounds are overwritten.
 */
export interface Vet {
  /**
   * Packages to be vetted.
   *
   * If a reference in this list matches more than one package, the change is
   * considered ambiguous and the entire update request is rejected. In other
   * words, every reference must match exactly one package.
   *
   * Required: must be non-empty
   */
  packages: VettedPackagesRef[];
  /**
   * The time from which these packages should be vetted, prior lower bounds
   * are overwritten.
   */
  newValidFromInclusive?: string | null | undefined;
  /**
   * The time until which these packages should be vetted, prior upper bounds
   * are overwritten.
   */
  newValidUntilExclusive?: string | null | undefined;
}

/**
 * Remove packages from the set of vetted packages
 */
export interface Unvet {
  /**
   * Packages to be unvetted.
   *
   * If a reference in this list matches multiple packages, they are all
   * unvetted.
   *
   * Required: must be non-empty
   */
  packages: VettedPackagesRef[];
}

/**
 * `Vet`, `Unvet`, or `Empty` (which the server rejects).
 */
export type Operation =
  | { Empty: Empty }
  | { Unvet: { value: Unvet } }
  | { Vet: { value: Vet } };

/**
 * A change to the set of vetted packages.
 */
export interface VettedPackagesChange {
  operation?: Operation | null | undefined;
}

/**
 * The expected current serial: `{"Prior": {"value": n}}`.
 */
export interface Prior {
  value: number;
}

/**
 * Expect no vetting state yet.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- an empty message: {}
export interface NoPrior {}

/**
 * `Prior`, `NoPrior`, or `Empty` (no check).
 */
export type Serial =
  | { Empty: Empty }
  | { NoPrior: NoPrior }
  | { Prior: Prior };

/**
 * The serial of last `VettedPackages` topology transaction on a given
 * participant and synchronizer.
 */
export interface PriorTopologySerial {
  serial?: Serial | null | undefined;
}

export type UpdateVettedPackagesForceFlag =
  | 'UPDATE_VETTED_PACKAGES_FORCE_FLAG_UNSPECIFIED'
  | 'UPDATE_VETTED_PACKAGES_FORCE_FLAG_ALLOW_VET_INCOMPATIBLE_UPGRADES'
  | 'UPDATE_VETTED_PACKAGES_FORCE_FLAG_ALLOW_UNVETTED_DEPENDENCIES';

/**
 * An empty `synchronizerId` lets the server find it.
 */
export interface UpdateVettedPackagesRequest {
  /**
   * Changes to apply to the current vetting state of the participant on the
   * specified synchronizer. The changes are applied in order.
   * Any package not changed will keep their previous vetting state.
   *
   * Required: must be non-empty
   */
  changes: VettedPackagesChange[];
  /**
   * If dry_run is true, then the changes are only prepared, but not applied. If
   * a request would trigger an error when run (e.g. TOPOLOGY_DEPENDENCIES_NOT_VETTED),
   * it will also trigger an error when dry_run.
   *
   * Use this flag to preview a change before applying it.
   * Defaults to false.
   */
  dryRun?: boolean | null | undefined;
  /**
   * If set, the requested changes will take place on the specified
   * synchronizer. If synchronizer_id is unset and the participant is only
   * connected to a single synchronizer, that synchronizer will be used by
   * default. If synchronizer_id is unset and the participant is connected to
   * multiple synchronizers, the request will error out with
   * PACKAGE_SERVICE_CANNOT_AUTODETECT_SYNCHRONIZER.
   */
  synchronizerId?: string | null | undefined;
  /**
   * The serial of the last `VettedPackages` topology transaction of this
   * participant and on this synchronizer.
   *
   * Execution of the request fails if this is not correct. Use this to guard
   * against concurrent changes.
   *
   * If left unspecified, no validation is done against the last transaction's
   * serial.
   */
  expectedTopologySerial?: PriorTopologySerial | null | undefined;
  /**
   * Controls whether potentially unsafe vetting updates are allowed.
   *
   * Optional: can be empty
   */
  updateVettedPackagesForceFlags?: UpdateVettedPackagesForceFlag[] | null | undefined;
}

/**
 * `pastVettedPackages` is `null` when there was no vetting state before.
 */
export interface UpdateVettedPackagesResponse {
  /**
   * All vetted packages on this participant and synchronizer, before the
   * specified changes. Empty if no vetting state existed beforehand.
   *
   * Not populated if no vetted topology state exists prior to the update.
   */
  pastVettedPackages?: VettedPackages | null | undefined;
  /**
   * All vetted packages on this participant and synchronizer, after the specified changes.
   */
  newVettedPackages: VettedPackages;
}
