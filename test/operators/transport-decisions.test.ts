import { describe, expect, it } from 'vitest';
import { LedgerApiError, TransportError } from '../../src/errors/index.js';
import { fallBackTransport } from '../../src/operators/internal/fall-back-transport.js';
import { nextPageChain } from '../../src/operators/internal/page-chain.js';
import { tokenRefreshDelay } from '../../src/operators/internal/token-refresh-delay.js';
import { initialTransportChoice } from '../../src/operators/internal/transport-choice.js';
import { transportRefused } from '../../src/operators/internal/transport-refused.js';
import { fakeSource, fakeTransportSource } from '../support/fake-updates-source.js';

const body = (code: string) => ({ code, cause: code, correlationId: null, traceId: null, context: {}, resources: [], errorCategory: 11, grpcCodeValue: 5, retryInfo: null, definiteAnswer: null });

describe('the transport decisions', () => {
  it.each<[string, unknown, boolean]>([
    ['404 with the legacy not-found body', new LedgerApiError({ status: 404, text: '{"errors":["GET, uri: /v2/updates"],"status":404}' }), true],
    ['404 from a proxy (HTML)', new LedgerApiError({ status: 404, text: '<html>not found</html>' }), true],
    ['405: the path exists for another method', new LedgerApiError({ status: 405, text: '' }), true],
    ['426 Upgrade Required', new LedgerApiError({ status: 426, text: '' }), true],
    ['501 Not Implemented', new LedgerApiError({ status: 501, text: '' }), true],
    ['a Canton 404 (PACKAGE_NAMES_NOT_FOUND) is an answer, not a refusal', new LedgerApiError({ status: 404, body: body('PACKAGE_NAMES_NOT_FOUND') }), false],
    ['400', new LedgerApiError({ status: 400, text: 'bad' }), false],
    ['a lost connection', new TransportError('CONNECTION_FAILED', 'refused'), false],
  ])('transportRefused: %s', (_name, error, refused) => {
    expect(transportRefused(error)).toBe(refused);
  });

  it('fallBackTransport: the next fallback on a refusal, nothing otherwise or when none is left', () => {
    const refused = new LedgerApiError({ status: 426, text: '' });
    const auto = { requested: 'auto' as const, current: 'websocket' as const, fallbacks: ['page', 'list'] as const };
    expect(fallBackTransport(auto, refused)).toEqual({ requested: 'auto', current: 'page', fallbacks: ['list'] });
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
