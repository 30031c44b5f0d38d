import type { OutputFormat } from '../output/output-format.js';

/** The `--format` value added by `addFormatOption` (commander has checked the choice), or `undefined`: choose. */
export function readFormatOption(values: Readonly<Record<string, unknown>>): OutputFormat | undefined {
  const format = values['format'];
  return format === 'pretty' || format === 'ndjson' ? format : undefined;
}
