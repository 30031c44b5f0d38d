import { InvalidArgumentError } from '../../errors/index.js';
import { checkPackageNameReference } from '../../filters/check-package-name-reference.js';
import type { Filters } from '../../schemas/index.js';
import { checkPartyId } from './check-party-id.js';
import { formatJsonPath } from './format-json-path.js';

/** The parts of an `EventFormat` (or of the deprecated `TransactionFilter`) that the server validates. */
export interface EventFormatFilters {
  readonly filtersByParty?: Readonly<Record<string, Filters>> | null | undefined;
  readonly filtersForAnyParty?: Filters | null | undefined;
}

/**
 * The template and interface filters of one `Filters`, in the server's order: every template filter, then
 * every interface filter (the server validates them in two passes). `Empty`, wildcard and absent
 * identifier filters need no check.
 */
function checkFilters(filters: Filters, path: readonly PropertyKey[]): void {
  const cumulative = filters.cumulative ?? [];
  for (const kind of ['TemplateFilter', 'InterfaceFilter'] as const) {
    cumulative.forEach((entry, i) => {
      const filter = entry.identifierFilter;
      if (filter == null) return;
      if (kind === 'TemplateFilter' && 'TemplateFilter' in filter) {
        const at = formatJsonPath([...path, 'cumulative', i, 'identifierFilter', 'TemplateFilter', 'value', 'templateId']);
        checkPackageNameReference(at, filter.TemplateFilter.value.templateId);
      } else if (kind === 'InterfaceFilter' && 'InterfaceFilter' in filter) {
        const at = formatJsonPath([...path, 'cumulative', i, 'identifierFilter', 'InterfaceFilter', 'value', 'interfaceId']);
        checkPackageNameReference(at, filter.InterfaceFilter.value.interfaceId);
      }
    });
  }
}

/**
 * Checks an `EventFormat` (or the deprecated `filter` of `POST /v2/updates`, which the server turns into
 * one) with the stateless rules of the server's format validator (docs/server-behavior.md#updates-validation-order step 4), in its
 * order:
 *
 * 1. `filtersByParty` and `filtersForAnyParty` cannot both be empty (`INVALID_ARGUMENT` on the server);
 * 2. for each `filtersByParty` entry in order: the key is a party id (see {@link checkPartyId}), then its
 *    template and interface filters name their template or interface by package NAME,
 *    `#<package-name>:<Module>:<Entity>` (a package id is `INVALID_FIELD packageId`; see
 *    `checkPackageNameReference`);
 * 3. the same filter check for `filtersForAnyParty`.
 *
 * Whether the parties, packages and templates exist is the server's business (it answers 404).
 *
 * @param format - the parsed event format.
 * @param path - the JSON path of the format in the request, e.g. `['updateFormat', 'includeReassignments']`.
 * @throws InvalidArgumentError naming the format, `<path>.filtersByParty`, or the offending `templateId`/`interfaceId`.
 */
export function checkEventFormat(format: EventFormatFilters, path: readonly PropertyKey[]): void {
  const byParty = Object.entries(format.filtersByParty ?? {});
  if (byParty.length === 0 && format.filtersForAnyParty == null) {
    throw new InvalidArgumentError(
      formatJsonPath(path),
      'filtersByParty and filtersForAnyParty cannot be empty simultaneously: name a party or set filtersForAnyParty',
    );
  }
  for (const [party, filters] of byParty) {
    checkPartyId(party, formatJsonPath([...path, 'filtersByParty']));
    checkFilters(filters, [...path, 'filtersByParty', party]);
  }
  if (format.filtersForAnyParty != null) checkFilters(format.filtersForAnyParty, [...path, 'filtersForAnyParty']);
}
