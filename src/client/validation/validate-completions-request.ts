import type { z } from 'zod';
import { InvalidArgumentError } from '../../errors/index.js';
import { CompletionStreamRequest, GetCompletionsRequest } from '../../schemas/index.js';
import { checkPartyId } from './check-party-id.js';
import { checkUserId } from './check-user-id.js';
import { parseRequest } from './parse-request.js';

/**
 * Validates a request for completions before anything is sent, with the rules the server applies without
 * looking at its state, in its order (`CompletionServiceRequestValidator`):
 *
 * - `endpoint: 'completions'` (`CompletionStreamRequest`): the schema (`beginExclusive >= 0`), the `userId`
 *   syntax when set (the token's user is used otherwise), `parties` non-empty and each a party id;
 * - `endpoint: 'command-completions'` (`GetCompletionsRequest`): the schema, each of `parties` a party id
 *   (none means every party, which needs `CanReadAsAnyParty`).
 *
 * Whether `beginExclusive` is after the ledger end or before the pruning offset is the server's to say.
 *
 * @returns the parsed request (for reading only).
 * @throws InvalidArgumentError for the first violation.
 */
export function validateCompletionsRequest(
  request: unknown,
  endpoint: 'completions' | 'command-completions',
): z.output<typeof CompletionStreamRequest> | z.output<typeof GetCompletionsRequest> {
  if (endpoint === 'command-completions') {
    const parsed = parseRequest(GetCompletionsRequest, request);
    (parsed.parties ?? []).forEach((party, i) => checkPartyId(party, `parties[${i}]`));
    return parsed;
  }
  const parsed = parseRequest(CompletionStreamRequest, request);
  if (parsed.userId != null && parsed.userId !== '') checkUserId(parsed.userId, 'userId');
  if (parsed.parties.length === 0) throw new InvalidArgumentError('parties', 'must name at least one party');
  parsed.parties.forEach((party, i) => checkPartyId(party, `parties[${i}]`));
  return parsed;
}
