import { LedgerApiError } from '../../errors/ledger-api-error.js';
import { TransportError } from '../../errors/transport-error.js';
import { UnsupportedByParticipantVersionError } from '../../errors/unsupported-by-participant-version-error.js';
import type { Transport } from '../../updates/transport.js';

/** The participant's own 503 when its request timeout fired (pekko-http's text, docs/network-paths.md): not a proxy. */
const participantTimeoutText = 'The server was not able to produce a timely response';

/** Statuses a proxy sends that HTTP would meet as well, so a fallback would not help: auth, proxy auth, rate limit. */
const notAboutTheTransport = new Set([401, 407, 429]);

/**
 * Why a request through `transport` that failed with `error` means the path to the participant (or the
 * participant) does not carry that transport, so `'auto'` should fall back to the next one — or `undefined`
 * when the failure is an ordinary one, for the retry policy (docs/transports.md, "How `auto` chooses"):
 *
 * - on every transport: the participant's version does not have the endpoint
 *   (`UnsupportedByParticipantVersionError`, nothing was sent); an answer 404 that is not a Canton error (the
 *   route is unknown: the participant's legacy not-found body, a proxy's page); 405 (the path exists for
 *   another method only), 426 (a proxy that wants another protocol), 501 (not implemented);
 * - on `websocket` only, where the participant answers an upgrade at once and refuses one only with a Canton
 *   error body: a handshake that got no answer in time (`TransportError` `HANDSHAKE_TIMEOUT`: a proxy that
 *   swallows upgrades), and any other answer to the upgrade (`request` ending in `(WebSocket)`) without a
 *   Canton body (a proxy's 400, 403, 502, 503, ...) — except 401, 407 and 429, which HTTP would get as
 *   well, and the participant's own 503 request timeout.
 *
 * A Canton error (`PACKAGE_NAMES_NOT_FOUND`, a redacted 403, ...) is an answer of the transport, not a
 * refusal. Pure.
 */
export function transportRefusal(error: unknown, transport: Exclude<Transport, 'auto'>): string | undefined {
  if (error instanceof UnsupportedByParticipantVersionError) return `participant ${error.participantVersion} has no ${error.endpoint}`;
  if (transport === 'websocket' && error instanceof TransportError && error.code === 'HANDSHAKE_TIMEOUT') {
    const prefix = `${error.request}: `;
    return error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
  }
  if (!(error instanceof LedgerApiError) || error.body !== undefined) return undefined;
  const status = error.status;
  // the upgrade's own answer (`GET ... (WebSocket)`), not that of a call around it (the ledger end of a plan)
  const upgrade = error.request === '' || error.request.endsWith('(WebSocket)');
  if (transport === 'websocket' && upgrade) {
    if (notAboutTheTransport.has(status) || (status === 503 && (error.text ?? '').startsWith(participantTimeoutText))) return undefined;
    return status === 404 ? 'upgrade answered 404 without a Canton body (a proxy, or no WebSocket route)' : `upgrade answered ${status} by a proxy (no Canton body)`;
  }
  if (status === 404) return 'answered 404 without a Canton body (no such route)';
  if (status === 405 || status === 426 || status === 501) return `answered ${status} (${status === 405 ? 'method not allowed' : status === 426 ? 'upgrade required' : 'not implemented'})`;
  return undefined;
}
