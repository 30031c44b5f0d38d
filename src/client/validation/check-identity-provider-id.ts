import { InvalidArgumentError } from '../../errors/index.js';
import { quoteValue } from './quote-value.js';

const ledgerString = /^[A-Za-z0-9._:\-#/ ]{1,255}$/;

/**
 * An `identityProviderId` as the server parses it: `""` (or unset) is the default identity provider;
 * anything else must be a Daml-LF ledger string, 1 to 255 characters from ASCII letters, digits and
 * `._:-#/` and space (`INVALID_FIELD identity_provider_id` otherwise). Whether the provider exists is
 * the server's business.
 *
 * @param value - the id; `null`/`undefined` count as unset.
 * @param field - the JSON path reported in the error.
 * @throws InvalidArgumentError(field, …).
 */
export function checkIdentityProviderId(value: string | null | undefined, field: string): void {
  if (value == null || value === '') return;
  if (!ledgerString.test(value)) {
    throw new InvalidArgumentError(
      field,
      `${quoteValue(value)} is not an identity provider id ("" for the default, or 1 to 255 characters: letters, digits, '._:-#/' and space)`,
    );
  }
}
