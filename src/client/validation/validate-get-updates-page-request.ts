import type { z } from 'zod';
import { InvalidArgumentError } from '../../errors/index.js';
import { GetUpdatesPageRequest } from '../../schemas/index.js';
import { checkPageToken } from './check-page-token.js';
import { checkUpdateFormat } from './check-update-format.js';
import { parseRequest } from './parse-request.js';

/**
 * Validates the body of `POST /v2/updates/get-updates-page` before it is sent, with the rules the server
 * applies without looking at its state, in its order (Canton `UpdateServiceRequestValidator.validateUpdatesPageRequest`):
 *
 * 1. the `GetUpdatesPageRequest` schema (the server's JSON decoding: `updateFormat` present,
 *    `beginOffsetExclusive >= 0`, `maxPageSize` an int32), and the page token's base64 shape;
 * 2. `endOffsetInclusive`, when set, `>= 1`;
 * 3. `maxPageSize`, when set, `>= 1` (the server's upper limit, 2 000 by default, is its configuration and is
 *    left to it);
 * 4. `beginOffsetExclusive` not after `endOffsetInclusive`;
 * 5. the update format ({@link checkUpdateFormat}).
 *
 * Whether the token belongs to this request, the ledger end and the pruning offset are the server's to check.
 *
 * @returns the parsed request (for reading only).
 * @throws InvalidArgumentError for the first violation.
 */
export function validateGetUpdatesPageRequest(request: unknown): z.output<typeof GetUpdatesPageRequest> {
  const parsed = parseRequest(GetUpdatesPageRequest, request);
  checkPageToken(parsed.pageToken);
  const { beginOffsetExclusive: begin, endOffsetInclusive: end, maxPageSize } = parsed;
  if (end != null && end < 1) throw new InvalidArgumentError('endOffsetInclusive', 'must be a positive offset when set');
  if (maxPageSize != null && maxPageSize < 1) throw new InvalidArgumentError('maxPageSize', 'must be positive when set');
  if (begin != null && end != null && begin > end) {
    throw new InvalidArgumentError('beginOffsetExclusive', `must not be after endOffsetInclusive (${end})`);
  }
  checkUpdateFormat(parsed.updateFormat);
  return parsed;
}
