import type { z } from 'zod';
import { GetActiveContractsRequest } from '../../schemas/index.js';
import { lazySchema } from '../../schemas/lazy-schema.js';
import { wireObject } from '../../schemas/wire-object.js';
import { checkEventFormat } from './check-event-format.js';
import { checkPageToken } from './check-page-token.js';
import { checkUpdateFormatChoice } from './check-update-format-choice.js';
import { parseRequest } from './parse-request.js';

/** `GetActiveContractsRequest` with `activeAtOffset` optional: the client looks the ledger end up when it is left out. */
const ActiveContractsRequest = lazySchema(
  () => wireObject(GetActiveContractsRequest).partial({ activeAtOffset: true }) as unknown as z.ZodType<Omit<GetActiveContractsRequest, 'activeAtOffset'> & { activeAtOffset?: number | undefined }>,
);

/**
 * Validates a request for active contracts (the body of `POST /v2/state/active-contracts`, the request frame
 * of its WebSocket) before anything is sent, with the rules the server applies without looking at its state,
 * in its order (`JsStateService.toGetActiveContractsRequest`, then `ApiStateService.getActiveContracts`):
 *
 * 1. the `GetActiveContractsRequest` schema (the server's JSON decoding: `activeAtOffset >= 0`), except that
 *    `activeAtOffset` may be left out;
 * 2. the `filter`/`verbose`/`eventFormat` rule ({@link checkUpdateFormatChoice} on `eventFormat`);
 * 3. the event format ({@link checkEventFormat}), or the deprecated `filter` as the format the server builds
 *    from it (errors under `filter`);
 * 4. the `streamContinuationToken`'s base64 shape (whether it belongs to this request is the server's to say).
 *
 * The ledger end and the pruning offset are left to the server.
 *
 * @returns the parsed request (for reading only).
 * @throws InvalidArgumentError for the first violation.
 */
export function validateGetActiveContractsRequest(request: unknown): z.output<typeof ActiveContractsRequest> {
  const parsed = parseRequest(ActiveContractsRequest, request);
  checkUpdateFormatChoice(parsed, 'eventFormat');
  if (parsed.eventFormat != null) checkEventFormat(parsed.eventFormat, ['eventFormat']);
  else if (parsed.filter != null) checkEventFormat(parsed.filter, ['filter']);
  checkPageToken(parsed.streamContinuationToken, 'streamContinuationToken');
  return parsed;
}
