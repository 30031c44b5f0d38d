import { InvalidArgumentError } from '../../errors/index.js';
import { quoteValue } from './quote-value.js';

const signedDigits = /^[+-]?\p{Nd}+$/u;
const asciiDigits = /^[+-]?[0-9]+$/;
const minLong = -(2n ** 63n);
const maxLong = 2n ** 63n - 1n;

/**
 * The `metadata.resourceVersion` of an update: unset or `""` (no precondition), or a number the server
 * parses as a 64-bit integer (Java `Long.parseLong`: an optional `+`/`-` and decimal digits, within
 * -2^63..2^63-1). Anything else the server rejects with `INVALID_FIELD user.metadata.resource_version`
 * ("Invalid resource version number") before looking up the user. (Java also reads non-ASCII decimal
 * digits; those pass here, without the range check.)
 *
 * @param value - the resource version.
 * @param field - the JSON path reported in the error.
 * @throws InvalidArgumentError(field, …).
 */
export function checkResourceVersion(value: string | null | undefined, field: string): void {
  if (value == null || value === '') return;
  const inRange = !asciiDigits.test(value) || (BigInt(value) >= minLong && BigInt(value) <= maxLong);
  if (!signedDigits.test(value) || !inRange) {
    throw new InvalidArgumentError(field, `${quoteValue(value)} is not a resource version (a 64-bit integer, or "" for none)`);
  }
}
