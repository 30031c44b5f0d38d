import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import type { Filters, TransactionFilter, UpdateFormat } from '../schemas/filters.js';

function templateFilters(filters: Filters | null | undefined): number {
  let count = 0;
  for (const c of filters?.cumulative ?? []) {
    const f = c.identifierFilter;
    if (f && typeof f === 'object' && 'TemplateFilter' in f) count++;
  }
  return count;
}

/**
 * The spec's Rule 2, for the update-tree form of the legacy request (`/v2/updates/trees`): `updateFormat`
 * must be unset, and the filter's template filters must be empty. Throws {@link InvalidArgumentError}
 * naming the offending field; returns normally when the request satisfies the rule.
 */
export function checkLegacyTreeRequest(request: {
  readonly filter?: TransactionFilter | null | undefined;
  readonly updateFormat?: UpdateFormat | null | undefined;
}): void {
  if (request.updateFormat != null) {
    throw new InvalidArgumentError('updateFormat', 'must be unset for the update-tree form');
  }
  const filter = request.filter;
  if (filter == null) return;
  for (const [party, filters] of Object.entries(filter.filtersByParty ?? {})) {
    if (templateFilters(filters) > 0) {
      throw new InvalidArgumentError(`filter.filtersByParty.${party}`, 'template filters must be empty for the update-tree form');
    }
  }
  if (templateFilters(filter.filtersForAnyParty) > 0) {
    throw new InvalidArgumentError('filter.filtersForAnyParty', 'template filters must be empty for the update-tree form');
  }
}
