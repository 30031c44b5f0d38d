import { InvalidArgumentError } from '../../errors/index.js';

/**
 * The `filter`/`verbose`/`updateFormat` rule of `POST /v2/updates`, as the server enforces it:
 * `filter` and `updateFormat` are exclusive; `verbose: true` may not accompany `updateFormat`
 * (`verbose: false` may); and one of `filter` or `updateFormat` is required. `null` counts as not set.
 *
 * @throws InvalidArgumentError naming `filter`, `verbose` or `updateFormat`.
 */
export function checkUpdateFormatChoice(request: {
  readonly filter?: unknown;
  readonly verbose?: boolean | null | undefined;
  readonly updateFormat?: unknown;
}): void {
  const hasFormat = request.updateFormat != null;
  if (hasFormat && request.filter != null) {
    throw new InvalidArgumentError('filter', 'cannot be set together with updateFormat; use updateFormat only');
  }
  if (hasFormat && request.verbose === true) {
    throw new InvalidArgumentError('verbose', 'cannot be true next to updateFormat; set verbose in its event formats');
  }
  if (!hasFormat && request.filter == null) {
    throw new InvalidArgumentError('updateFormat', 'is required (or the deprecated filter)');
  }
}
