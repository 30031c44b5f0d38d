import { z } from 'zod';
import { ObjectMeta } from './common.js';

/** `PartyDetails`. */
export const PartyDetails = z.looseObject({
  party: z.string(),
  isLocal: z.boolean().nullish(),
  localMetadata: ObjectMeta.nullish(),
  identityProviderId: z.string().nullish(),
});
export type PartyDetails = z.output<typeof PartyDetails>;

/** `AllocatePartyRequest`. */
export const AllocatePartyRequest = z.looseObject({
  partyIdHint: z.string().nullish(),
  localMetadata: ObjectMeta.nullish(),
  identityProviderId: z.string().nullish(),
  synchronizerId: z.string().nullish(),
  userId: z.string().nullish(),
});
export type AllocatePartyRequest = z.input<typeof AllocatePartyRequest>;

/** `AllocatePartyResponse`. */
export const AllocatePartyResponse = z.looseObject({ partyDetails: PartyDetails });
export type AllocatePartyResponse = z.output<typeof AllocatePartyResponse>;

/** `ListKnownPartiesResponse`. */
export const ListKnownPartiesResponse = z.looseObject({
  partyDetails: z.array(PartyDetails),
  nextPageToken: z.string().nullish(),
});
export type ListKnownPartiesResponse = z.output<typeof ListKnownPartiesResponse>;

/** `ListPackagesResponse`. */
export const ListPackagesResponse = z.looseObject({ packageIds: z.array(z.string()) });
export type ListPackagesResponse = z.output<typeof ListPackagesResponse>;
