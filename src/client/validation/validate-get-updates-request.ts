import type { z } from 'zod';
import { GetUpdatesRequest } from '../../schemas/index.js';
import { checkDescendingOrder } from './check-descending-order.js';
import { checkEventFormat } from './check-event-format.js';
import { checkEndNotBeforeBegin } from './check-end-not-before-begin.js';
import { checkOffsetRange } from './check-offset-range.js';
import { checkUpdateFormat } from './check-update-format.js';
import { checkUpdateFormatChoice } from './check-update-format-choice.js';
import { parseRequest } from './parse-request.js';

/**
 * Validates the body of `POST /v2/updates` before it is sent, with every rule the server applies without
 * looking at its state, in the server's order (docs/server-behavior.md#updates-validation-order):
 *
 * 1. the `GetUpdatesRequest` schema (the server's JSON decoding; also `beginExclusive >= 0`);
 * 2. the `filter`/`verbose`/`updateFormat` rule ({@link checkUpdateFormatChoice});
 * 3. `descendingOrder` needing `endInclusive`, then `endInclusive >= 1` ({@link checkOffsetRange});
 * 4. the update format ({@link checkUpdateFormat}) — or, for a request with the deprecated `filter`, that
 *    filter as the event format the server builds from it ({@link checkEventFormat}, errors under `filter`);
 * 5. `endInclusive` not before `beginExclusive` ({@link checkEndNotBeforeBegin}).
 *
 * The checks against the ledger end and the pruning offset, and whether parties, packages and templates
 * exist, are left to the server.
 *
 * @returns the parsed request (for reading only).
 * @throws InvalidArgumentError for the first violation.
 */
export function validateGetUpdatesRequest(request: unknown): z.output<typeof GetUpdatesRequest> {
  const parsed = parseRequest(GetUpdatesRequest, request);
  checkUpdateFormatChoice(parsed);
  checkDescendingOrder(parsed);
  checkOffsetRange(parsed);
  if (parsed.updateFormat != null) checkUpdateFormat(parsed.updateFormat);
  else if (parsed.filter != null) checkEventFormat(parsed.filter, ['filter']);
  checkEndNotBeforeBegin(parsed);
  return parsed;
}
