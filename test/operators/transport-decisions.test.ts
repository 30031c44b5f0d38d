import { describe, expect, it } from 'vitest';
import { LedgerApiError, TransportError, UnsupportedByParticipantVersionError } from '../../src/errors/index.js';
import { fallBackTransport } from '../../src/operators/internal/fall-back-transport.js';
import { nextPageChain } from '../../src/operators/internal/page-chain.js';
import { tokenRefreshDelay } from '../../src/operators/internal/token-refresh-delay.js';
import { initialTransportChoice } from '../../src/operators/internal/transport-choice.js';
import { transportRefusal } from '../../src/operators/internal/transport-refused.js';
import { fakeSource, fakeTransportSource } from '../support/fake-updates-source.js';

const body = (code: string) => ({ code, cause: code, correlationId: null, traceId: null, context: {}, resources: [], errorCategory: 11, grpcCodeValue: 5, retryInfo: null, definiteAnswer: null });

describe('the transport decisions', () => {
  const participantTimeout = 'The server was not able to produce a timely response to your request.\r\nPlease try again in a short while!';
  const handshake = new TransportError('HANDSHAKE_TIMEOUT', 'GET /v2/updates (WebSocket): WebSocket handshake got no answer within 3000 ms', { request: 'GET /v2/updates (WebSocket)' });
  const unsupported = new UnsupportedByParticipantVersionError({ operation: 'updatesPage', endpoint: 'POST /v2/updates/get-updates-page', participantVersion: '3.4.11', availableIn: '3.5.0 and later', alternative: 'updates' });
  it.each<[string, unknown, string | undefined, string | undefined]>([
    // [case, error, reason over websocket, reason over page/list]
    ['404 with the legacy not-found body', new LedgerApiError({ status: 404, text: '{"errors":["GET, uri: /v2/updates"],"status":404}' }), 'upgrade answered 404 without a Canton body (a proxy, or no WebSocket route)', 'answered 404 without a Canton body (no such route)'],
    ['404 from a proxy (HTML)', new LedgerApiError({ status: 404, text: '<html>not found</html>' }), 'upgrade answered 404 without a Canton body (a proxy, or no WebSocket route)', 'answered 404 without a Canton body (no such route)'],
    ['405: the path exists for another method', new LedgerApiError({ status: 405, text: '' }), 'upgrade answered 405 by a proxy (no Canton body)', 'answered 405 (method not allowed)'],
    ['426 Upgrade Required', new LedgerApiError({ status: 426, text: '' }), 'upgrade answered 426 by a proxy (no Canton body)', 'answered 426 (upgrade required)'],
    ['501 Not Implemented', new LedgerApiError({ status: 501, text: '' }), 'upgrade answered 501 by a proxy (no Canton body)', 'answered 501 (not implemented)'],
    ['a proxy\'s bare 502', new LedgerApiError({ status: 502, text: '<html>Bad Gateway</html>' }), 'upgrade answered 502 by a proxy (no Canton body)', undefined],
    ['a proxy\'s 503', new LedgerApiError({ status: 503, text: 'Service Unavailable' }), 'upgrade answered 503 by a proxy (no Canton body)', undefined],
    ['a proxy\'s 400 and 403', new LedgerApiError({ status: 403, text: 'Forbidden' }), 'upgrade answered 403 by a proxy (no Canton body)', undefined],
    ['400', new LedgerApiError({ status: 400, text: 'bad' }), 'upgrade answered 400 by a proxy (no Canton body)', undefined],
    ['the participant\'s own 503 request timeout is not a proxy', new LedgerApiError({ status: 503, text: participantTimeout }), undefined, undefined],
    ['401, 407 and 429 would meet HTTP too', new LedgerApiError({ status: 429, text: '' }), undefined, undefined],
    ['a bodiless 401', new LedgerApiError({ status: 401, text: '' }), undefined, undefined],
    ['a Canton 404 (PACKAGE_NAMES_NOT_FOUND) is an answer, not a refusal', new LedgerApiError({ status: 404, body: body('PACKAGE_NAMES_NOT_FOUND') }), undefined, undefined],
    ['a Canton 403 (the participant refused the token at the upgrade)', new LedgerApiError({ status: 403, body: body('NA') }), undefined, undefined],
    ['a Canton 503', new LedgerApiError({ status: 503, body: body('SERVICE_NOT_RUNNING') }), undefined, undefined],
    ['a handshake without an answer', handshake, 'WebSocket handshake got no answer within 3000 ms', undefined],
    ['a silent open socket', new TransportError('REQUEST_TIMEOUT', 'nothing arrived'), undefined, undefined],
    ['a lost connection', new TransportError('CONNECTION_FAILED', 'refused'), undefined, undefined],
    ['a 502 of another request (the ledger end before the stream) is no answer to the upgrade', new LedgerApiError({ status: 502, text: 'Bad Gateway', request: 'GET /v2/state/ledger-end' }), undefined, undefined],
    ['a 502 answer to the upgrade', new LedgerApiError({ status: 502, text: 'Bad Gateway', request: 'GET /v2/updates (WebSocket)' }), 'upgrade answered 502 by a proxy (no Canton body)', undefined],
    ['a version without the endpoint', unsupported, 'participant 3.4.11 has no POST /v2/updates/get-updates-page', 'participant 3.4.11 has no POST /v2/updates/get-updates-page'],
  ])('transportRefusal: %s', (_name, error, overWebSocket, overHttp) => {
    expect(transportRefusal(error, 'websocket')).toBe(overWebSocket);
    expect(transportRefusal(error, 'page')).toBe(overHttp);
    expect(transportRefusal(error, 'list')).toBe(overHttp);
  });

  it('fallBackTransport: the next fallback (and why) on a refusal, nothing otherwise or when none is left', () => {
    const refused = new LedgerApiError({ status: 426, text: '' });
    const auto = { requested: 'auto' as const, current: 'websocket' as const, fallbacks: ['page', 'list'] as const };
    expect(fallBackTransport(auto, refused)).toEqual({ choice: { requested: 'auto', current: 'page', fallbacks: ['list'] }, reason: 'upgrade answered 426 by a proxy (no Canton body)' });
    expect(fallBackTransport(auto, handshake)).toEqual({ choice: { requested: 'auto', current: 'page', fallbacks: ['list'] }, reason: 'WebSocket handshake got no answer within 3000 ms' });
    expect(fallBackTransport({ ...auto, current: 'page', fallbacks: ['list'] }, handshake)).toBeUndefined();
    expect(fallBackTransport(auto, new TransportError('CONNECTION_RESET', 'x'))).toBeUndefined();
    expect(fallBackTransport({ ...auto, fallbacks: [] }, refused)).toBeUndefined();
  });

  it('initialTransportChoice: auto in the order websocket, page, list, of what the source offers', () => {
    expect(initialTransportChoice('auto', fakeTransportSource([]), true)).toEqual({ requested: 'auto', current: 'websocket', fallbacks: ['page', 'list'] });
    expect(initialTransportChoice('auto', fakeTransportSource([]), false)).toEqual({ requested: 'auto', current: 'websocket', fallbacks: ['list'] });
    expect(initialTransportChoice('auto', fakeSource([]), true)).toEqual({ requested: 'auto', current: 'list', fallbacks: [] });
    expect(initialTransportChoice('page', fakeTransportSource([]), true)).toEqual({ requested: 'page', current: 'page', fallbacks: [] });
  });

  it.each<[string, number | undefined, number, number, number | undefined]>([
    ['unknown expiry', undefined, 0, 30_000, undefined],
    ['an hour left: 30 s before', 3_600_000, 0, 30_000, 3_570_000],
    ['40 s left: halfway (not 10 s from now)', 40_000, 0, 30_000, 20_000],
    ['under a second left: let the server decide', 900, 0, 30_000, undefined],
    ['expired', 1_000, 2_000, 30_000, undefined],
  ])('tokenRefreshDelay: %s', (_name, expiresAt, now, margin, delay) => {
    expect(tokenRefreshDelay(expiresAt, now, margin)).toBe(delay);
  });

  it('nextPageChain: follows a token with the same offsets, ends without one, and ignores a token from below the begin', () => {
    const request = { beginExclusive: 10, endInclusive: undefined, descending: false };
    expect(nextPageChain(request, { highestPageOffsetInclusive: 20, nextPageToken: 'T' })).toEqual({ beginExclusive: 10, endInclusive: undefined, token: 'T' });
    expect(nextPageChain(request, { highestPageOffsetInclusive: 20, nextPageToken: undefined })).toBeUndefined();
    expect(nextPageChain(request, { highestPageOffsetInclusive: 7, nextPageToken: 'T' })).toBeUndefined();
    expect(nextPageChain({ ...request, descending: true }, { highestPageOffsetInclusive: 7, nextPageToken: 'D' })).toEqual({ beginExclusive: 10, endInclusive: undefined, token: 'D' });
  });
});
