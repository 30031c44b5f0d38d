import { InvalidArgumentError } from '../../errors/index.js';

const base64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * A page token of `get-updates-page` is the base64 text of the server's `nextPageToken`; the server decodes
 * it with the standard (not URL-safe) alphabet, padding optional, and answers anything else with a 400
 * decode failure. Empty means "the first page". Checks that shape, nothing more: whether the token belongs
 * to the request is for the server to say (`InvalidUpdatesPageToken`).
 *
 * The same shape holds for the other opaque tokens (`streamContinuationToken`), named by `field`.
 *
 * @throws InvalidArgumentError(field, …).
 */
export function checkPageToken(token: string | null | undefined, field = 'pageToken'): void {
  if (token == null || token === '') return;
  const body = token.replace(/=+$/, '');
  if (!base64.test(token) || token.length - body.length > 2 || body.length % 4 === 1) {
    throw new InvalidArgumentError(field, `must be the base64 text of a ${field === 'pageToken' ? 'nextPageToken' : 'token the server sent'}`);
  }
}
