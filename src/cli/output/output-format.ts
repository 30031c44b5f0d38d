/** The formats of a command that writes elements: `pretty` (the human view) or `ndjson` (the wire JSON). */
export type OutputFormat = 'pretty' | 'ndjson';

/** The accepted values of `--format`. */
export const outputFormats: readonly OutputFormat[] = ['pretty', 'ndjson'];
