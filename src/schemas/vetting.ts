import { z } from 'zod';
import { built, lazySchema } from './lazy-schema.js';
import { Empty } from './common.js';
import { Int32, Timestamp } from './primitives.js';
import { variant, wrapped } from './variant.js';

/** `PackageMetadataFilter`: package ids, or package-name prefixes (OR-ed). */
export const PackageMetadataFilter = lazySchema(() => z.looseObject({
  packageIds: z.array(z.string()).nullish(),
  packageNamePrefixes: z.array(z.string()).nullish(),
}));
export type PackageMetadataFilter = z.input<typeof PackageMetadataFilter>;

/** `TopologyStateFilter`: participants and synchronizers (AND across fields, OR within). */
export const TopologyStateFilter = lazySchema(() => z.looseObject({
  participantIds: z.array(z.string()).nullish(),
  synchronizerIds: z.array(z.string()).nullish(),
}));
export type TopologyStateFilter = z.input<typeof TopologyStateFilter>;

/** `ListVettedPackagesRequest`: `pageSize` 0 means the server maximum (100 by default). */
export const ListVettedPackagesRequest = lazySchema(() => z.looseObject({
  packageMetadataFilter: built(PackageMetadataFilter).nullish(),
  topologyStateFilter: built(TopologyStateFilter).nullish(),
  pageToken: z.string().nullish(),
  pageSize: built(Int32).nullish(),
}));
export type ListVettedPackagesRequest = z.input<typeof ListVettedPackagesRequest>;

/** `VettedPackage`: `packageName`/`packageVersion` are `""` when the package is not uploaded locally. */
export const VettedPackage = lazySchema(() => z.looseObject({
  packageId: z.string(),
  validFromInclusive: built(Timestamp).nullish(),
  validUntilExclusive: built(Timestamp).nullish(),
  packageName: z.string().nullish(),
  packageVersion: z.string().nullish(),
}));
export type VettedPackage = z.output<typeof VettedPackage>;

/** `VettedPackages`: the vetting state of one (synchronizer, participant) pair. */
export const VettedPackages = lazySchema(() => z.looseObject({
  packages: z.array(built(VettedPackage)),
  participantId: z.string(),
  synchronizerId: z.string(),
  topologySerial: built(Int32),
}));
export type VettedPackages = z.output<typeof VettedPackages>;

/**
 * `ListVettedPackagesResponse`. `nextPageToken` is non-empty whenever the page is non-empty; the paging
 * ends with an empty page.
 */
export const ListVettedPackagesResponse = lazySchema(() => z.looseObject({
  vettedPackages: z.array(built(VettedPackages)).nullish(),
  nextPageToken: z.string().nullish(),
}));
export type ListVettedPackagesResponse = z.output<typeof ListVettedPackagesResponse>;

/**
 * `VettedPackagesRef`: the server accepts only {id}, {name}, {name, version} or {id, name, version}.
 */
export const VettedPackagesRef = lazySchema(() => z.looseObject({
  packageId: z.string().nullish(),
  packageName: z.string().nullish(),
  packageVersion: z.string().nullish(),
}));
export type VettedPackagesRef = z.input<typeof VettedPackagesRef>;

/** `Vet` (payload): vet packages with new bounds (an omitted bound is unbounded). */
export const Vet = lazySchema(() => z.looseObject({
  packages: z.array(built(VettedPackagesRef)),
  newValidFromInclusive: built(Timestamp).nullish(),
  newValidUntilExclusive: built(Timestamp).nullish(),
}));
export type Vet = z.input<typeof Vet>;

/** `Unvet` (payload). */
export const Unvet = lazySchema(() => z.looseObject({
  packages: z.array(built(VettedPackagesRef)),
}));
export type Unvet = z.input<typeof Unvet>;

/** The alternatives of `Operation`. */
export const operationCases = { Empty, Unvet: lazySchema(() => wrapped(built(Unvet))), Vet: lazySchema(() => wrapped(built(Vet))) };

/** `Operation`: `Vet`, `Unvet`, or `Empty` (rejected by the server). */
export const Operation = lazySchema(() => variant('Operation', operationCases, { open: false }));
export type Operation = z.input<typeof Operation>;

/** `VettedPackagesChange`. */
export const VettedPackagesChange = lazySchema(() => z.looseObject({
  operation: built(Operation).nullish(),
}));
export type VettedPackagesChange = z.input<typeof VettedPackagesChange>;

/** `Prior` (payload of the `Prior` alternative): the expected current serial. */
export const Prior = lazySchema(() => z.looseObject({ value: built(Int32) }));

/** `NoPrior`: expect no vetting state yet. */
export const NoPrior = lazySchema(() => z.looseObject({}));

/** The alternatives of `Serial`. `Prior` is `{"Prior": {"value": n}}`. */
export const serialCases = { Empty, NoPrior, Prior };

/** `Serial`: `Prior`, `NoPrior`, or `Empty` (no check). */
export const Serial = lazySchema(() => variant('Serial', serialCases, { open: false }));
export type Serial = z.input<typeof Serial>;

/** `PriorTopologySerial`. */
export const PriorTopologySerial = lazySchema(() => z.looseObject({ serial: built(Serial).nullish() }));
export type PriorTopologySerial = z.input<typeof PriorTopologySerial>;

/** The force-flag enum of a vetting update. */
export const UpdateVettedPackagesForceFlag = lazySchema(() => z.enum([
  'UPDATE_VETTED_PACKAGES_FORCE_FLAG_UNSPECIFIED',
  'UPDATE_VETTED_PACKAGES_FORCE_FLAG_ALLOW_VET_INCOMPATIBLE_UPGRADES',
  'UPDATE_VETTED_PACKAGES_FORCE_FLAG_ALLOW_UNVETTED_DEPENDENCIES',
]));
export type UpdateVettedPackagesForceFlag = z.output<typeof UpdateVettedPackagesForceFlag>;

/** `UpdateVettedPackagesRequest`: an empty `synchronizerId` lets the server autodetect it. */
export const UpdateVettedPackagesRequest = lazySchema(() => z.looseObject({
  changes: z.array(built(VettedPackagesChange)),
  dryRun: z.boolean().nullish(),
  synchronizerId: z.string().nullish(),
  expectedTopologySerial: built(PriorTopologySerial).nullish(),
  updateVettedPackagesForceFlags: z.array(built(UpdateVettedPackagesForceFlag)).nullish(),
}));
export type UpdateVettedPackagesRequest = z.input<typeof UpdateVettedPackagesRequest>;

/** `UpdateVettedPackagesResponse`: `pastVettedPackages` is `null` when there was no state before. */
export const UpdateVettedPackagesResponse = lazySchema(() => z.looseObject({
  pastVettedPackages: built(VettedPackages).nullish(),
  newVettedPackages: built(VettedPackages),
}));
export type UpdateVettedPackagesResponse = z.output<typeof UpdateVettedPackagesResponse>;
