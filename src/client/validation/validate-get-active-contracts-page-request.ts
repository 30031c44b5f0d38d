import type { z } from 'zod';
import { InvalidArgumentError } from '../../errors/index.js';
import { GetActiveContractsPageRequest } from '../../schemas/index.js';
import { checkEventFormat } from './check-event-format.js';
import { checkPageToken } from './check-page-token.js';
import { parseRequest } from './parse-request.js';

/**
 * Validates the body of `GET /v2/state/active-contracts-page` before it is sent, with the rules the server
 * applies without looking at its state, in its order (`ApiStateService.getActiveContractsPage`):
 *
 * 1. the `GetActiveContractsPageRequest` schema (`eventFormat` present, `activeAtOffset >= 0`, `maxPageSize`
 *    an int32);
 * 2. the event format ({@link checkEventFormat});
 * 3. `maxPageSize`, when set, `>= 1` (the server's upper limit is its configuration and is left to it);
 * 4. the page token's base64 shape (whether it belongs to this request is the server's to say).
 *
 * @returns the parsed request (for reading only).
 * @throws InvalidArgumentError for the first violation.
 */
export function validateGetActiveContractsPageRequest(request: unknown): z.output<typeof GetActiveContractsPageRequest> {
  const parsed = parseRequest(GetActiveContractsPageRequest, request);
  checkEventFormat(parsed.eventFormat, ['eventFormat']);
  if (parsed.maxPageSize != null && parsed.maxPageSize < 1) throw new InvalidArgumentError('maxPageSize', 'must be positive when set');
  checkPageToken(parsed.pageToken);
  return parsed;
}
