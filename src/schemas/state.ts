import { z } from 'zod';
import { Duration, SynchronizerTime } from './common.js';
import { Int32, Offset } from './primitives.js';

/** `GetLedgerEndResponse`: `offset` 0 on an empty ledger. */
export const GetLedgerEndResponse = z.looseObject({
  offset: Offset.nullish(),
  synchronizerTimes: z.array(SynchronizerTime).nullish(),
});
export type GetLedgerEndResponse = z.output<typeof GetLedgerEndResponse>;

/** `GetLatestPrunedOffsetsResponse`: `beginExclusive` must be at least `participantPrunedUpToInclusive`. */
export const GetLatestPrunedOffsetsResponse = z.looseObject({
  participantPrunedUpToInclusive: Offset.nullish(),
  allDivulgedContractsPrunedUpToInclusive: Offset.nullish(),
});
export type GetLatestPrunedOffsetsResponse = z.output<typeof GetLatestPrunedOffsetsResponse>;

/** `ExperimentalStaticTime`. */
export const ExperimentalStaticTime = z.looseObject({ supported: z.boolean() });
/** `ExperimentalCommandInspectionService`. */
export const ExperimentalCommandInspectionService = z.looseObject({ supported: z.boolean() });
/** `ExperimentalFeatures`. */
export const ExperimentalFeatures = z.looseObject({
  staticTime: ExperimentalStaticTime.nullish(),
  commandInspectionService: ExperimentalCommandInspectionService.nullish(),
});
/** `UserManagementFeature`. */
export const UserManagementFeature = z.looseObject({
  supported: z.boolean(),
  maxRightsPerUser: Int32,
  maxUsersPageSize: Int32,
});
/** `PartyManagementFeature`. */
export const PartyManagementFeature = z.looseObject({ maxPartiesPageSize: Int32 });
/** `OffsetCheckpointFeature`. */
export const OffsetCheckpointFeature = z.looseObject({ maxOffsetCheckpointEmissionDelay: Duration });
/** `PackageFeature`: publishes the vetting-list maximum page size. */
export const PackageFeature = z.looseObject({ maxVettedPackagesPageSize: Int32 });

/** `FeaturesDescriptor`. */
export const FeaturesDescriptor = z.looseObject({
  experimental: ExperimentalFeatures,
  userManagement: UserManagementFeature,
  partyManagement: PartyManagementFeature,
  offsetCheckpoint: OffsetCheckpointFeature,
  packageFeature: PackageFeature,
});
export type FeaturesDescriptor = z.output<typeof FeaturesDescriptor>;

/** `GetLedgerApiVersionResponse`: `GET /v2/version`, which needs no token. */
export const GetLedgerApiVersionResponse = z.looseObject({
  version: z.string(),
  features: FeaturesDescriptor,
});
export type GetLedgerApiVersionResponse = z.output<typeof GetLedgerApiVersionResponse>;
