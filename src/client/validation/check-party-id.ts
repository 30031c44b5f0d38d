import { InvalidArgumentError } from '../../errors/index.js';
import { quoteValue } from './quote-value.js';

const partyId = /^[A-Za-z0-9:_ -]{1,255}$/;

/**
 * A party id as the server parses it (Daml-LF `Party`): 1 to 255 characters, each an ASCII letter or digit,
 * `:`, `-`, `_` or space. The server rejects anything else before looking at its state (`INVALID_ARGUMENT`
 * for event-format keys, primary parties and rights; `INVALID_FIELD parties` for topology formats).
 * Whether the party exists is not checked here.
 *
 * @param value - the party id.
 * @param field - the JSON path reported in the error.
 * @throws InvalidArgumentError(field, …) naming the value and the allowed form.
 */
export function checkPartyId(value: string, field: string): void {
  if (!partyId.test(value)) {
    throw new InvalidArgumentError(
      field,
      `${quoteValue(value)} is not a party id (1 to 255 characters: letters, digits, ':', '-', '_' and space)`,
    );
  }
}
