export { activeContractsElementDecoder } from './active-contracts-element-decoder.js';
export type { ActiveContractsDecoding } from './active-contracts-element-decoder.js';
export { ActiveSet } from './active-set.js';
export type { ActiveSetChange } from './active-set.js';
export { ContractMap } from './contract-map.js';
export { contractEntryKind } from './contract-entry-kind.js';
export type { ContractEntryKind } from './contract-entry-kind.js';
export { decodeActiveContractsElement } from './decode-active-contracts-element.js';
export type { ActiveContractsPage } from './active-contracts-page.js';
