import type { z } from 'zod';
import { GetUpdatesRequest } from '../../schemas/index.js';
import { checkDescendingOrder } from './check-descending-order.js';
import { checkOffsetRange } from './check-offset-range.js';
import { checkUpdateFormatChoice } from './check-update-format-choice.js';
import { parseRequest } from './parse-request.js';

/**
 * Validates the body of `POST /v2/updates` before it is sent: the `GetUpdatesRequest` schema, the
 * `filter`/`verbose`/`updateFormat` rule, `descendingOrder` needing `endInclusive`, and the offset range.
 *
 * @returns the parsed request (for reading only).
 * @throws InvalidArgumentError for the first violation.
 */
export function validateGetUpdatesRequest(request: unknown): z.output<typeof GetUpdatesRequest> {
  const parsed = parseRequest(GetUpdatesRequest, request);
  checkUpdateFormatChoice(parsed);
  checkDescendingOrder(parsed);
  checkOffsetRange(parsed);
  return parsed;
}
