/**
 * `ledger-rx/filters`: what to read. The immutable `updateFormat()` builder (with its transaction, event
 * and format parts), and the spec's rules for the deprecated `filter`/`verbose` request (`fromLegacyFilter`,
 * `checkLegacyTreeRequest`). Also exported from `ledger-rx`.
 *
 * @module ledger-rx/filters
 */
export { checkLegacyTreeRequest } from './check-legacy-tree-request.js';
export { EventFormatBuilder } from './event-format-builder.js';
export type { EventFormatSpec, InterfaceFilterOptions, TemplateFilterOptions } from './event-format-builder.js';
export { fromLegacyFilter } from './from-legacy-filter.js';
export { TransactionFormatBuilder } from './transaction-format-builder.js';
export type { Shape } from './transaction-format-builder.js';
export { UpdateFormatBuilder, updateFormat } from './update-format-builder.js';
