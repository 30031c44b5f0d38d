import type { StreamScope } from '../../sinks/postgres/stream-scope.js';
import type { FilterOptions } from '../options/filter-options.js';

/** The scope of the filter flags (`--party`, `--any-party`, `--template`, `--interface`), sorted, as the store records it. */
export function scopeOfFilter(filter: FilterOptions): StreamScope {
  const sorted = (xs: readonly string[] | undefined) => [...new Set(xs ?? [])].sort();
  const parties = filter.anyParty === true || (filter.parties ?? []).length === 0 ? null : sorted(filter.parties);
  return { parties, templates: sorted(filter.templates), interfaces: sorted(filter.interfaces) };
}

/** The filter flags with their scope replaced by `scope` (the other flags, shape, reassignments, topology, verbose, kept): the inverse of {@link scopeOfFilter}. */
export function filterOfScope(filter: FilterOptions, scope: StreamScope): FilterOptions {
  return { ...filter, parties: scope.parties ?? undefined, anyParty: scope.parties === null, templates: scope.templates, interfaces: scope.interfaces };
}

