import { z } from 'zod';
import { built, lazySchema } from './lazy-schema.js';
import { ObjectMeta } from './common.js';

/** `PartyDetails`. */
export const PartyDetails = lazySchema(() => z.looseObject({
  party: z.string(),
  isLocal: z.boolean().nullish(),
  localMetadata: built(ObjectMeta).nullish(),
  identityProviderId: z.string().nullish(),
}));
export type PartyDetails = z.output<typeof PartyDetails>;

/** `AllocatePartyRequest`. */
export const AllocatePartyRequest = lazySchema(() => z.looseObject({
  partyIdHint: z.string().nullish(),
  localMetadata: built(ObjectMeta).nullish(),
  identityProviderId: z.string().nullish(),
  synchronizerId: z.string().nullish(),
  userId: z.string().nullish(),
}));
export type AllocatePartyRequest = z.input<typeof AllocatePartyRequest>;

/** `AllocatePartyResponse`. */
export const AllocatePartyResponse = lazySchema(() => z.looseObject({ partyDetails: built(PartyDetails) }));
export type AllocatePartyResponse = z.output<typeof AllocatePartyResponse>;

/** `ListKnownPartiesResponse`. */
export const ListKnownPartiesResponse = lazySchema(() => z.looseObject({
  partyDetails: z.array(built(PartyDetails)),
  nextPageToken: z.string().nullish(),
}));
export type ListKnownPartiesResponse = z.output<typeof ListKnownPartiesResponse>;

/** `ListPackagesResponse`. */
export const ListPackagesResponse = lazySchema(() => z.looseObject({ packageIds: z.array(z.string()) }));
export type ListPackagesResponse = z.output<typeof ListPackagesResponse>;
