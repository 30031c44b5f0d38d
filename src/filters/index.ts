export { checkLegacyTreeRequest } from './check-legacy-tree-request.js';
export { checkPackageNameReference } from './check-package-name-reference.js';
export { EventFormatBuilder } from './event-format-builder.js';
export type { EventFormatSpec, InterfaceFilterOptions, TemplateFilterOptions } from './event-format-builder.js';
export { fromLegacyFilter } from './from-legacy-filter.js';
export { TransactionFormatBuilder } from './transaction-format-builder.js';
export type { Shape } from './transaction-format-builder.js';
export { UpdateFormatBuilder, updateFormat } from './update-format-builder.js';
