import type { Shape } from '../../filters/transaction-format-builder.js';

/**
 * What a streaming command reads, as given on the command line. With no `parties` (or with `anyParty`),
 * it reads as every party hosted on the participant (`filtersForAnyParty`, needs `CanReadAsAnyParty`).
 * Transactions are always included; `templates` and `interfaces` narrow them (and reassignments);
 * `reassignments` and `topology` add those update kinds.
 */
export interface FilterOptions {
  readonly parties?: readonly string[] | undefined;
  readonly anyParty?: boolean | undefined;
  /** Template ids `#<package-name>:<Module>:<Entity>`. */
  readonly templates?: readonly string[] | undefined;
  /** Interface ids `#<package-name>:<Module>:<Interface>` (their views are included). */
  readonly interfaces?: readonly string[] | undefined;
  /** Transaction shape. Default `acs-delta`. */
  readonly shape?: Shape | undefined;
  readonly reassignments?: boolean | undefined;
  readonly topology?: boolean | undefined;
  readonly verbose?: boolean | undefined;
}
