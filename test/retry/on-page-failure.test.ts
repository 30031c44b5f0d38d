import { describe, expect, it } from 'vitest';
import { LedgerApiError, RetriesExhaustedError, TransportError } from '../../src/errors/index.js';
import { onPageFailure, resolveRetryConfig, retryDelay, type PageFailureAction } from '../../src/retry/index.js';

const config = resolveRetryConfig({ maxAttempts: 3, initialDelayMs: 100, maxDelayMs: 1_000, factor: 2, jitter: 0 });
const reset = new TransportError('CONNECTION_RESET', 'reset');
const badRequest = new LedgerApiError({ status: 400, text: 'bad' });
const busy = new LedgerApiError({ status: 503, text: 'busy', retryAfterHeaderMs: 5_000 });

function tooLarge(cause: string) {
  const body = { code: 'JSON_API_MAXIMUM_LIST_ELEMENTS_NUMBER_REACHED', cause, correlationId: null, traceId: null, context: {}, resources: [], errorCategory: 8, grpcCodeValue: 8, retryInfo: null, definiteAnswer: null };
  return new LedgerApiError({ status: 413, body });
}
const statesCap = tooLarge('The number of matching elements (151) is greater than the node limit (150).');
const noCap = tooLarge('too many');
function cantonError(code: string, errorCategory: number, retryInfo: string | null) {
  return new LedgerApiError({ status: 409, body: { code, cause: code, correlationId: null, traceId: null, context: {}, resources: [], errorCategory, grpcCodeValue: 10, retryInfo, definiteAnswer: null } });
}
const expired = cantonError('ACCESS_TOKEN_EXPIRED', 2, '1 second');
const stale = cantonError('STALE_STREAM_AUTHORIZATION', 2, '1 second');
const pageToken = cantonError('INVALID_UPDATES_PAGE_TOKEN', 8, null);

describe('onPageFailure', () => {
  it.each<[string, unknown, number | undefined, number, PageFailureAction]>([
    ['413 stating a cap below the limit: that cap', statesCap, 200, 1, { action: 'lower', from: 200, to: 150 }],
    ['413 stating a cap not below the limit: half', statesCap, 120, 1, { action: 'lower', from: 120, to: 60 }],
    ['413 without a cap: half', noCap, 9, 1, { action: 'lower', from: 9, to: 4 }],
    ['413 at limit 2: 1', noCap, 2, 1, { action: 'lower', from: 2, to: 1 }],
    ['413 does not use up an attempt (even the last)', noCap, 8, 99, { action: 'lower', from: 8, to: 4 }],
    ['413 at limit 1: nothing to lower, not retryable', noCap, 1, 1, { action: 'fail', error: noCap }],
    ['413 without a limit: like any error', noCap, undefined, 1, { action: 'fail', error: noCap }],
    ['transport error, first retry', reset, 200, 1, { action: 'wait', delayMs: 100 }],
    ['transport error, third retry: backoff', reset, 200, 3, { action: 'wait', delayMs: 400 }],
    ['the server asked for more than the cap: honoured', busy, 200, 1, { action: 'wait', delayMs: 5_000 }],
    ['not retryable: the error itself', badRequest, 200, 1, { action: 'fail', error: badRequest }],
    ['not an error of ours: itself', new Error('bug'), 200, 1, { action: 'fail', error: new Error('bug') }],
    ['the token expired mid-stream: at once, not after its retryInfo', expired, undefined, 3, { action: 'wait', delayMs: 0 }],
    ['the rights changed mid-stream: at once', stale, 200, 1, { action: 'wait', delayMs: 0 }],
    ['a refused page token (not retryable otherwise): at once, without the token', pageToken, 100, 2, { action: 'wait', delayMs: 0 }],
  ])('%s', (_name, error, limit, attempt, expected) => {
    expect(onPageFailure(error, limit, attempt, config)).toEqual(expected);
  });

  it('gives up with RetriesExhaustedError after maxAttempts retries, carrying the last error', () => {
    const decision = onPageFailure(reset, 200, 4, config);
    expect(decision.action).toBe('fail');
    const error = (decision as { error: unknown }).error;
    expect(error).toBeInstanceOf(RetriesExhaustedError);
    expect(error).toMatchObject({ attempts: 3, cause: reset });
  });

  it('with retries off, fails with the error itself (nothing was exhausted)', () => {
    expect(onPageFailure(reset, undefined, 1, resolveRetryConfig(false))).toEqual({ action: 'fail', error: reset });
    expect(onPageFailure(expired, undefined, 1, resolveRetryConfig(false))).toEqual({ action: 'fail', error: expired });
  });

  it('counts the immediate resumptions: a provider that keeps handing out an expired token ends the read', () => {
    expect(onPageFailure(expired, undefined, 4, config)).toMatchObject({ action: 'fail', error: { code: 'RETRIES_EXHAUSTED', cause: expired } });
    expect(onPageFailure(pageToken, undefined, 4, config)).toEqual({ action: 'fail', error: pageToken });
  });
});

describe('retryDelay', () => {
  it('grows by factor from initialDelayMs, caps at maxDelayMs, spreads by jitter', () => {
    expect([1, 2, 3, 4, 5].map((a) => retryDelay(reset, a, resolveRetryConfig({ maxAttempts: 5, initialDelayMs: 100, maxDelayMs: 500, jitter: 0 })))).toEqual([100, 200, 400, 500, 500]);
    const jittered = (r: number) => retryDelay(reset, 1, resolveRetryConfig({ initialDelayMs: 100, jitter: 0.2, random: () => r }));
    expect([jittered(0), jittered(0.5), jittered(0.999999)]).toEqual([80, 100, 120]);
    expect(retryDelay(reset, 4, config)).toBe('stop');
    expect(retryDelay(badRequest, 1, config)).toBe('stop');
  });
});
