import { z } from 'zod';
import { Empty } from './common.js';
import { variant, wrapped } from './variant.js';

/** `WildcardFilter` (payload): matches every template. */
export const WildcardFilter = z.looseObject({
  includeCreatedEventBlob: z.boolean().nullish(),
});
export type WildcardFilter = z.output<typeof WildcardFilter>;

/** `TemplateFilter` (payload): `templateId` as `#package-name:Module:Entity`. */
export const TemplateFilter = z.looseObject({
  templateId: z.string(),
  includeCreatedEventBlob: z.boolean().nullish(),
});
export type TemplateFilter = z.output<typeof TemplateFilter>;

/** `InterfaceFilter` (payload): `interfaceId` as `#package-name:Module:Interface`. */
export const InterfaceFilter = z.looseObject({
  interfaceId: z.string(),
  includeInterfaceView: z.boolean().nullish(),
  includeCreatedEventBlob: z.boolean().nullish(),
});
export type InterfaceFilter = z.output<typeof InterfaceFilter>;

/** The alternatives of `IdentifierFilter`; all but `Empty` wrap their payload in `"value"`. */
export const identifierFilterCases = {
  Empty,
  InterfaceFilter: wrapped(InterfaceFilter),
  TemplateFilter: wrapped(TemplateFilter),
  WildcardFilter: wrapped(WildcardFilter),
};

/** `IdentifierFilter`: one of `WildcardFilter`, `TemplateFilter`, `InterfaceFilter` or `Empty`. */
export const IdentifierFilter = variant('IdentifierFilter', identifierFilterCases, { open: false });
export type IdentifierFilter = z.output<typeof IdentifierFilter>;

/** `CumulativeFilter`. */
export const CumulativeFilter = z.looseObject({
  identifierFilter: IdentifierFilter.nullish(),
});
export type CumulativeFilter = z.output<typeof CumulativeFilter>;

/** `Filters`: an empty or absent `cumulative` list means "every template" (a wildcard). */
export const Filters = z.looseObject({
  cumulative: z.array(CumulativeFilter).nullish(),
});
export type Filters = z.output<typeof Filters>;

/** `Map_Filters`: filters keyed by party. */
export const MapFilters = z.record(z.string(), Filters);

/** `EventFormat`: which events to include, per party or for any party, and whether to be verbose. */
export const EventFormat = z.looseObject({
  filtersByParty: MapFilters.nullish(),
  filtersForAnyParty: Filters.nullish(),
  verbose: z.boolean().nullish(),
});
export type EventFormat = z.output<typeof EventFormat>;

/** `TransactionFilter`: the deprecated filter of `GetUpdatesRequest`. */
export const TransactionFilter = z.looseObject({
  filtersByParty: MapFilters.nullish(),
  filtersForAnyParty: Filters.nullish(),
});
export type TransactionFilter = z.output<typeof TransactionFilter>;

/** The `transactionShape` enum. */
export const TransactionShape = z.enum([
  'TRANSACTION_SHAPE_UNSPECIFIED',
  'TRANSACTION_SHAPE_ACS_DELTA',
  'TRANSACTION_SHAPE_LEDGER_EFFECTS',
]);
export type TransactionShape = z.output<typeof TransactionShape>;

/** `TransactionFormat`. */
export const TransactionFormat = z.looseObject({
  eventFormat: EventFormat,
  transactionShape: TransactionShape,
});
export type TransactionFormat = z.output<typeof TransactionFormat>;

/** `ParticipantAuthorizationTopologyFormat`: an empty party list means every party. */
export const ParticipantAuthorizationTopologyFormat = z.looseObject({
  parties: z.array(z.string()).nullish(),
});
export type ParticipantAuthorizationTopologyFormat = z.output<typeof ParticipantAuthorizationTopologyFormat>;

/** `TopologyFormat`. */
export const TopologyFormat = z.looseObject({
  includeParticipantAuthorizationEvents: ParticipantAuthorizationTopologyFormat.nullish(),
});
export type TopologyFormat = z.output<typeof TopologyFormat>;

/** `UpdateFormat`: transactions, reassignments and topology events to include. */
export const UpdateFormat = z.looseObject({
  includeTransactions: TransactionFormat.nullish(),
  includeReassignments: EventFormat.nullish(),
  includeTopologyEvents: TopologyFormat.nullish(),
});
export type UpdateFormat = z.output<typeof UpdateFormat>;
