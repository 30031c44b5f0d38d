import { isCantonErrorBody, normalizeCantonErrorBody, toLedgerApiError, type LedgerApiError } from '../../errors/index.js';
import { parseRetryAfterHeader } from './parse-retry-after-header.js';

/**
 * Turns a non-2xx response into the error the client raises. A JSON Canton error body becomes a
 * {@link LedgerApiError} (or `PrunedOffsetError` for `PARTICIPANT_PRUNED_DATA_ACCESSED`) carrying all ten
 * fields; any other body (the server's 400 text/plain decode failure, its 503 text/plain request timeout,
 * the legacy 404 body of an unknown route, an HTML page from a proxy) becomes a `LedgerApiError` with code
 * `HTTP_<status>` and the text in `text`. `Retry-After` is honoured when the body has no `retryInfo`.
 *
 * @param response - status, headers and the (bounded) body text.
 * @param request - `METHOD /path` of the request, for the message.
 * @param hint - the client's explanation (see `forbiddenHint`), appended to the message.
 * @returns the error; never throws.
 */
export function toHttpStatusError(
  response: { readonly status: number; readonly headers: Readonly<Record<string, string | string[] | undefined>>; readonly text: string },
  request: string,
  hint?: string,
): LedgerApiError {
  let json: unknown;
  try {
    json = JSON.parse(response.text);
  } catch {
    json = undefined;
  }
  const retryAfterHeaderMs = parseRetryAfterHeader(response.headers['retry-after']);
  if (isCantonErrorBody(json)) {
    return toLedgerApiError({ status: response.status, body: normalizeCantonErrorBody(json), request, retryAfterHeaderMs, hint });
  }
  return toLedgerApiError({ status: response.status, text: response.text, request, retryAfterHeaderMs, hint });
}
