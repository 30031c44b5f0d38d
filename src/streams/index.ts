export { iterateJsonArrayBody } from './iterate-json-array-body.js';
export type { JsonArrayBody } from './json-array-body.js';
export type { JsonArrayBodyOptions } from './json-array-body-options.js';
export { DEFAULT_MAX_BUFFERED_ELEMENT_BYTES, JsonArrayScanner } from './json-array-scanner.js';
export type { JsonArrayElementHandler, JsonArrayScannerOptions } from './json-array-scanner.js';
export { observeJsonArrayBody } from './observe-json-array-body.js';
