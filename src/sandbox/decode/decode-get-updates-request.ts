import {
  array,
  boolean,
  type Decoder,
  decodeBody,
  empty,
  enumOf,
  fail,
  int64,
  map,
  object,
  optional,
  string,
  variant,
  withDefault,
  wrapped,
} from './decoders.js';

/** A decoded identifier filter alternative. */
export type DecodedIdentifierFilter =
  | { readonly kind: 'Empty'; readonly value: Record<string, never> }
  | { readonly kind: 'WildcardFilter'; readonly value: { readonly includeCreatedEventBlob: boolean } }
  | { readonly kind: 'TemplateFilter'; readonly value: { readonly templateId: string | undefined; readonly includeCreatedEventBlob: boolean } }
  | {
      readonly kind: 'InterfaceFilter';
      readonly value: {
        readonly interfaceId: string | undefined;
        readonly includeInterfaceView: boolean;
        readonly includeCreatedEventBlob: boolean;
      };
    };

/** A decoded `Filters`. */
export interface DecodedFilters {
  readonly cumulative: readonly { readonly identifierFilter: DecodedIdentifierFilter }[];
}

/** A decoded `EventFormat` (also the shape of the legacy `TransactionFilter`, with `verbose`). */
export interface DecodedEventFormat {
  readonly filtersByParty: Readonly<Record<string, DecodedFilters>>;
  readonly filtersForAnyParty: DecodedFilters | undefined;
  readonly verbose: boolean;
}

/** `transactionShape` values; `UNRECOGNIZED` is what the server's enum decoder makes of that literal. */
export type DecodedTransactionShape = 'TRANSACTION_SHAPE_UNSPECIFIED' | 'TRANSACTION_SHAPE_ACS_DELTA' | 'TRANSACTION_SHAPE_LEDGER_EFFECTS' | 'UNRECOGNIZED';

/** A decoded `UpdateFormat`. */
export interface DecodedUpdateFormat {
  readonly includeTransactions: { readonly eventFormat: DecodedEventFormat | undefined; readonly transactionShape: DecodedTransactionShape } | undefined;
  readonly includeReassignments: DecodedEventFormat | undefined;
  readonly includeTopologyEvents: { readonly includeParticipantAuthorizationEvents: { readonly parties: readonly string[] } | undefined } | undefined;
}

/** A decoded `GetUpdatesRequest` (the JSON layer's legacy DTO: `beginExclusive` defaults to 0). */
export interface DecodedGetUpdatesRequest {
  readonly beginExclusive: number;
  readonly endInclusive: number | undefined;
  readonly filter: { readonly filtersByParty: Readonly<Record<string, DecodedFilters>>; readonly filtersForAnyParty: DecodedFilters | undefined } | undefined;
  readonly verbose: boolean;
  readonly updateFormat: DecodedUpdateFormat | undefined;
  readonly descendingOrder: boolean;
}

/**
 * An `Identifier` written as a string: exactly three non-empty `:`-separated parts (package reference,
 * module, entity). Anything else is a decode failure, as with the server's identifier codec.
 */
export const identifierString: Decoder<string> = (v, p) => {
  const s = string(v, p);
  const parts = s.split(':');
  if (parts.length !== 3 || parts.some((x) => x === '')) fail(p, `Invalid identifier '${s}': expected <package>:<module>:<entity>`);
  return s;
};

const shapes = ['TRANSACTION_SHAPE_UNSPECIFIED', 'TRANSACTION_SHAPE_ACS_DELTA', 'TRANSACTION_SHAPE_LEDGER_EFFECTS'] as const;
const shapeDecoder = enumOf(shapes);
const transactionShape: Decoder<DecodedTransactionShape> = (v, p) => (v === 'UNRECOGNIZED' ? 'UNRECOGNIZED' : shapeDecoder(v, p));

const identifierFilter = variant('IdentifierFilter', {
  Empty: empty,
  WildcardFilter: wrapped(object({ includeCreatedEventBlob: withDefault(boolean, () => false) })),
  TemplateFilter: wrapped(
    object({
      templateId: optional(identifierString),
      includeCreatedEventBlob: withDefault(boolean, () => false),
    }),
  ),
  InterfaceFilter: wrapped(
    object({
      interfaceId: optional(identifierString),
      includeInterfaceView: withDefault(boolean, () => false),
      includeCreatedEventBlob: withDefault(boolean, () => false),
    }),
  ),
});

const filters: Decoder<DecodedFilters> = object({
  cumulative: withDefault(
    array(object({ identifierFilter: withDefault(identifierFilter, () => ({ kind: 'Empty' as const, value: {} })) })),
    () => [],
  ),
});

/** Decoder of a relaxed-codec `EventFormat`. */
export const eventFormatDecoder: Decoder<DecodedEventFormat> = object({
  filtersByParty: withDefault(map(filters), () => ({})),
  filtersForAnyParty: optional(filters),
  verbose: withDefault(boolean, () => false),
});

/** Decoder of a relaxed-codec `UpdateFormat`. */
export const updateFormatDecoder: Decoder<DecodedUpdateFormat> = object({
  includeTransactions: optional(
    object({
      eventFormat: optional(eventFormatDecoder),
      // An enum field has no usable relaxed default: a missing shape is a decode failure (docs/server-behavior.md#json-encoding).
      transactionShape,
    }),
  ),
  includeReassignments: optional(eventFormatDecoder),
  includeTopologyEvents: optional(
    object({
      includeParticipantAuthorizationEvents: optional(object({ parties: withDefault(array(string), () => []) })),
    }),
  ),
});

/** Decoder of the legacy `TransactionFilter` (`filter` of the update and active-contracts requests). */
export const transactionFilterDecoder: Decoder<NonNullable<DecodedGetUpdatesRequest['filter']>> = object({
  filtersByParty: withDefault(map(filters), () => ({})),
  filtersForAnyParty: optional(filters),
});

const request: Decoder<DecodedGetUpdatesRequest> = object({
  beginExclusive: withDefault(int64, () => 0),
  endInclusive: optional(int64),
  filter: optional(transactionFilterDecoder),
  verbose: withDefault(boolean, () => false),
  updateFormat: optional(updateFormatDecoder),
  descendingOrder: withDefault(boolean, () => false),
});

/** Decodes a `POST /v2/updates` body; throws the 400 text/plain decode failure. */
export function decodeGetUpdatesRequest(body: unknown): DecodedGetUpdatesRequest {
  return decodeBody(request, body);
}
