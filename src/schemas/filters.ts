import { z } from 'zod';
import { built, lazySchema } from './lazy-schema.js';
import { Empty } from './common.js';
import { variant, wrapped } from './variant.js';

/** `WildcardFilter` (payload): matches every template. */
export const WildcardFilter = lazySchema(() => z.looseObject({
  includeCreatedEventBlob: z.boolean().nullish(),
}));
export type WildcardFilter = z.output<typeof WildcardFilter>;

/** `TemplateFilter` (payload): `templateId` as `#package-name:Module:Entity`. */
export const TemplateFilter = lazySchema(() => z.looseObject({
  templateId: z.string(),
  includeCreatedEventBlob: z.boolean().nullish(),
}));
export type TemplateFilter = z.output<typeof TemplateFilter>;

/** `InterfaceFilter` (payload): `interfaceId` as `#package-name:Module:Interface`. */
export const InterfaceFilter = lazySchema(() => z.looseObject({
  interfaceId: z.string(),
  includeInterfaceView: z.boolean().nullish(),
  includeCreatedEventBlob: z.boolean().nullish(),
}));
export type InterfaceFilter = z.output<typeof InterfaceFilter>;

/** The alternatives of `IdentifierFilter`; all but `Empty` wrap their payload in `"value"`. */
export const identifierFilterCases = {
  Empty,
  InterfaceFilter: lazySchema(() => wrapped(built(InterfaceFilter))),
  TemplateFilter: lazySchema(() => wrapped(built(TemplateFilter))),
  WildcardFilter: lazySchema(() => wrapped(built(WildcardFilter))),
};

/** `IdentifierFilter`: one of `WildcardFilter`, `TemplateFilter`, `InterfaceFilter` or `Empty`. */
export const IdentifierFilter = lazySchema(() => variant('IdentifierFilter', identifierFilterCases, { open: false }));
export type IdentifierFilter = z.output<typeof IdentifierFilter>;

/** `CumulativeFilter`. */
export const CumulativeFilter = lazySchema(() => z.looseObject({
  identifierFilter: built(IdentifierFilter).nullish(),
}));
export type CumulativeFilter = z.output<typeof CumulativeFilter>;

/** `Filters`: an empty or absent `cumulative` list means "every template" (a wildcard). */
export const Filters = lazySchema(() => z.looseObject({
  cumulative: z.array(built(CumulativeFilter)).nullish(),
}));
export type Filters = z.output<typeof Filters>;

/** `Map_Filters`: filters keyed by party. */
export const MapFilters = lazySchema(() => z.record(z.string(), built(Filters)));

/** `EventFormat`: which events to include, per party or for any party, and whether to be verbose. */
export const EventFormat = lazySchema(() => z.looseObject({
  filtersByParty: built(MapFilters).nullish(),
  filtersForAnyParty: built(Filters).nullish(),
  verbose: z.boolean().nullish(),
}));
export type EventFormat = z.output<typeof EventFormat>;

/** `TransactionFilter`: the deprecated filter of `GetUpdatesRequest`. */
export const TransactionFilter = lazySchema(() => z.looseObject({
  filtersByParty: built(MapFilters).nullish(),
  filtersForAnyParty: built(Filters).nullish(),
}));
export type TransactionFilter = z.output<typeof TransactionFilter>;

/** The `transactionShape` enum. */
export const TransactionShape = lazySchema(() => z.enum([
  'TRANSACTION_SHAPE_UNSPECIFIED',
  'TRANSACTION_SHAPE_ACS_DELTA',
  'TRANSACTION_SHAPE_LEDGER_EFFECTS',
]));
export type TransactionShape = z.output<typeof TransactionShape>;

/** `TransactionFormat`. */
export const TransactionFormat = lazySchema(() => z.looseObject({
  eventFormat: built(EventFormat),
  transactionShape: built(TransactionShape),
}));
export type TransactionFormat = z.output<typeof TransactionFormat>;

/** `ParticipantAuthorizationTopologyFormat`: an empty party list means every party. */
export const ParticipantAuthorizationTopologyFormat = lazySchema(() => z.looseObject({
  parties: z.array(z.string()).nullish(),
}));
export type ParticipantAuthorizationTopologyFormat = z.output<typeof ParticipantAuthorizationTopologyFormat>;

/** `TopologyFormat`. */
export const TopologyFormat = lazySchema(() => z.looseObject({
  includeParticipantAuthorizationEvents: built(ParticipantAuthorizationTopologyFormat).nullish(),
}));
export type TopologyFormat = z.output<typeof TopologyFormat>;

/** `UpdateFormat`: transactions, reassignments and topology events to include. */
export const UpdateFormat = lazySchema(() => z.looseObject({
  includeTransactions: built(TransactionFormat).nullish(),
  includeReassignments: built(EventFormat).nullish(),
  includeTopologyEvents: built(TopologyFormat).nullish(),
}));
export type UpdateFormat = z.output<typeof UpdateFormat>;
