import { InvalidArgumentError } from '../../errors/index.js';

/**
 * The `filter`/`verbose`/`updateFormat` rule of `POST /v2/updates` (and the same rule with `eventFormat` for
 * the active contracts, `formatField: 'eventFormat'`), as the server enforces it: `filter` and the format are
 * exclusive; `verbose: true` may not accompany the format (`verbose: false` may); and one of `filter` or the
 * format is required. `null` counts as not set.
 *
 * @throws InvalidArgumentError naming `filter`, `verbose` or the format field.
 */
export function checkUpdateFormatChoice(
  request: {
    readonly filter?: unknown;
    readonly verbose?: boolean | null | undefined;
    readonly updateFormat?: unknown;
    readonly eventFormat?: unknown;
  },
  formatField: 'updateFormat' | 'eventFormat' = 'updateFormat',
): void {
  const hasFormat = request[formatField] != null;
  if (hasFormat && request.filter != null) {
    throw new InvalidArgumentError('filter', `cannot be set together with ${formatField}; use ${formatField} only`);
  }
  if (hasFormat && request.verbose === true) {
    throw new InvalidArgumentError('verbose', `cannot be true next to ${formatField}; set verbose in ${formatField === 'updateFormat' ? 'its event formats' : 'it'}`);
  }
  if (!hasFormat && request.filter == null) {
    throw new InvalidArgumentError(formatField, 'is required (or the deprecated filter)');
  }
}
