import { z } from 'zod';
import { built, lazySchema } from './lazy-schema.js';
import { Duration, SynchronizerTime } from './common.js';
import { Int32, Offset } from './primitives.js';

/** `GetLedgerEndResponse`: `offset` 0 on an empty ledger. */
export const GetLedgerEndResponse = lazySchema(() => z.looseObject({
  offset: built(Offset).nullish(),
  synchronizerTimes: z.array(built(SynchronizerTime)).nullish(),
}));
export type GetLedgerEndResponse = z.output<typeof GetLedgerEndResponse>;

/** `GetLatestPrunedOffsetsResponse`: `beginExclusive` must be at least `participantPrunedUpToInclusive`. */
export const GetLatestPrunedOffsetsResponse = lazySchema(() => z.looseObject({
  participantPrunedUpToInclusive: built(Offset).nullish(),
  allDivulgedContractsPrunedUpToInclusive: built(Offset).nullish(),
}));
export type GetLatestPrunedOffsetsResponse = z.output<typeof GetLatestPrunedOffsetsResponse>;

/** `ExperimentalStaticTime`. */
export const ExperimentalStaticTime = lazySchema(() => z.looseObject({ supported: z.boolean() }));
/** `ExperimentalCommandInspectionService`. */
export const ExperimentalCommandInspectionService = lazySchema(() => z.looseObject({ supported: z.boolean() }));
/** `ExperimentalFeatures`. */
export const ExperimentalFeatures = lazySchema(() => z.looseObject({
  staticTime: built(ExperimentalStaticTime).nullish(),
  commandInspectionService: built(ExperimentalCommandInspectionService).nullish(),
}));
/** `UserManagementFeature`. */
export const UserManagementFeature = lazySchema(() => z.looseObject({
  supported: z.boolean(),
  maxRightsPerUser: built(Int32),
  maxUsersPageSize: built(Int32),
}));
/** `PartyManagementFeature`. */
export const PartyManagementFeature = lazySchema(() => z.looseObject({ maxPartiesPageSize: built(Int32) }));
/** `OffsetCheckpointFeature`. */
export const OffsetCheckpointFeature = lazySchema(() => z.looseObject({ maxOffsetCheckpointEmissionDelay: built(Duration) }));
/** `PackageFeature`: publishes the vetting-list maximum page size. */
export const PackageFeature = lazySchema(() => z.looseObject({ maxVettedPackagesPageSize: built(Int32) }));

/** `FeaturesDescriptor`. */
export const FeaturesDescriptor = lazySchema(() => z.looseObject({
  experimental: built(ExperimentalFeatures),
  userManagement: built(UserManagementFeature),
  partyManagement: built(PartyManagementFeature),
  offsetCheckpoint: built(OffsetCheckpointFeature),
  packageFeature: built(PackageFeature),
}));
export type FeaturesDescriptor = z.output<typeof FeaturesDescriptor>;

/** `GetLedgerApiVersionResponse`: `GET /v2/version`, which needs no token. */
export const GetLedgerApiVersionResponse = lazySchema(() => z.looseObject({
  version: z.string(),
  features: built(FeaturesDescriptor),
}));
export type GetLedgerApiVersionResponse = z.output<typeof GetLedgerApiVersionResponse>;
