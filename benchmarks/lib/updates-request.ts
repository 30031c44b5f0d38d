/** The `POST /v2/updates` request every HTTP benchmark sends: all parties, ACS delta, wildcard, bounded or open. */

// a type alias (not an interface) so that it is assignable to the library's index-signature request type
export type UpdatesRequestBody = {
  beginExclusive: number;
  endInclusive?: number;
  updateFormat: {
    includeTransactions: {
      eventFormat: {
        filtersByParty: Record<string, never>;
        filtersForAnyParty: { cumulative: { identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: boolean } } } }[] };
        verbose: boolean;
      };
      transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA';
    };
  };
};

export function wildcardUpdateFormat(): UpdatesRequestBody['updateFormat'] {
  return {
    includeTransactions: {
      eventFormat: {
        filtersByParty: {},
        filtersForAnyParty: { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: false } } } }] },
        verbose: false,
      },
      transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA',
    },
  };
}

export function updatesRequest(beginExclusive: number, endInclusive?: number): UpdatesRequestBody {
  return { beginExclusive, ...(endInclusive === undefined ? {} : { endInclusive }), updateFormat: wildcardUpdateFormat() };
}
