import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { buildRequestUrl } from '../../src/client/http/build-request-url.js';
import { createResponseParser } from '../../src/client/http/create-response-parser.js';
import { mapRequestError } from '../../src/client/http/map-request-error.js';
import { parseJsonText } from '../../src/client/http/parse-json-text.js';
import { parseRetryAfterHeader } from '../../src/client/http/parse-retry-after-header.js';
import { readBoundedText } from '../../src/client/http/read-bounded-text.js';
import { toHttpStatusError } from '../../src/client/http/to-http-status-error.js';
import { AbortError, LedgerApiError, ProtocolError, PrunedOffsetError, TransportError } from '../../src/errors/index.js';
import { GetLedgerEndResponse } from '../../src/schemas/index.js';
import { cantonError } from './support/mock-ledger.js';

function errnoError(code: string): Error {
  return Object.assign(new Error(`connect ${code} 127.0.0.1:1`), { code });
}

describe('buildRequestUrl', () => {
  it('keeps a base path prefix and appends defined query parameters', () => {
    const url = buildRequestUrl(new URL('https://host/ledger/'), '/v2/updates', { limit: 5, stream_idle_timeout_ms: undefined });
    expect(url.href).toBe('https://host/ledger/v2/updates?limit=5');
  });
});

describe('parseRetryAfterHeader', () => {
  it('reads seconds and HTTP dates', () => {
    expect(parseRetryAfterHeader('3')).toBe(3000);
    expect(parseRetryAfterHeader(['2', '9'])).toBe(2000);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfterHeader('Thu, 01 Jan 2026 00:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfterHeader('Wed, 31 Dec 2025 00:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfterHeader('soon')).toBeUndefined();
    expect(parseRetryAfterHeader(undefined)).toBeUndefined();
  });
});

describe('readBoundedText', () => {
  it('reads a whole body under the limit', async () => {
    expect(await readBoundedText(Readable.from([Buffer.from('héllo'), Buffer.from(' world')]), 100)).toEqual({ text: 'héllo world', truncated: false });
  });

  it('stops at the limit and destroys the body', async () => {
    const body = Readable.from([Buffer.from('abcdef'), Buffer.from('ghij')]);
    const result = await readBoundedText(body, 8);
    expect(result).toEqual({ text: 'abcdefgh', truncated: true });
    expect(body.destroyed).toBe(true);
  });
});

describe('mapRequestError', () => {
  it.each([
    ['ECONNREFUSED', 'CONNECTION_FAILED'],
    ['ENOTFOUND', 'CONNECTION_FAILED'],
    ['EHOSTUNREACH', 'CONNECTION_FAILED'],
    ['ECONNRESET', 'CONNECTION_RESET'],
    ['UND_ERR_SOCKET', 'CONNECTION_RESET'],
    ['EPIPE', 'CONNECTION_RESET'],
    ['UND_ERR_CLOSED', 'CONNECTION_RESET'],
    ['UND_ERR_HEADERS_TIMEOUT', 'REQUEST_TIMEOUT'],
    ['UND_ERR_BODY_TIMEOUT', 'REQUEST_TIMEOUT'],
    ['UND_ERR_CONNECT_TIMEOUT', 'REQUEST_TIMEOUT'],
  ])('%s → TransportError %s, keeping the cause', (code, expected) => {
    const original = errnoError(code);
    const mapped = mapRequestError(original, 'GET /v2/version');
    expect(mapped).toBeInstanceOf(TransportError);
    expect((mapped as TransportError).code).toBe(expected);
    expect((mapped as TransportError).retryable).toBe(true);
    expect((mapped as TransportError).request).toBe('GET /v2/version');
    expect((mapped as Error).cause).toBe(original);
  });

  it('finds codes inside AggregateError and cause chains', () => {
    const aggregate = Object.assign(new AggregateError([errnoError('ECONNREFUSED')], 'all failed'), {});
    expect((mapRequestError(aggregate, 'x') as TransportError).code).toBe('CONNECTION_FAILED');
    const wrapped = new Error('outer', { cause: errnoError('ECONNRESET') });
    expect((mapRequestError(wrapped, 'x') as TransportError).code).toBe('CONNECTION_RESET');
  });

  it('maps aborts by reason', () => {
    const original = new Error('aborted');
    const caller = mapRequestError(original, 'x', 'caller');
    expect(caller).toBeInstanceOf(AbortError);
    expect((caller as Error).cause).toBe(original);
    expect(mapRequestError(original, 'x', 'closed')).toBeInstanceOf(AbortError);
    const timeout = mapRequestError(original, 'GET /v2/version', 'timeout', 250);
    expect((timeout as TransportError).code).toBe('REQUEST_TIMEOUT');
    expect((timeout as Error).message).toContain('250 ms');
  });

  it('passes ledger-rx errors and unknown errors through unchanged', () => {
    const protocol = new ProtocolError('MALFORMED_JSON', 'x');
    expect(mapRequestError(protocol, 'x')).toBe(protocol);
    const other = new TypeError('boom');
    expect(mapRequestError(other, 'x')).toBe(other);
  });
});

describe('toHttpStatusError', () => {
  it('keeps all ten Canton fields of a JSON error body', () => {
    const body = cantonError();
    const e = toHttpStatusError({ status: 404, headers: {}, text: JSON.stringify(body) }, 'PATCH /v2/users/bob');
    expect(e).toBeInstanceOf(LedgerApiError);
    expect(e.body).toEqual(body);
    expect(e.code).toBe('USER_NOT_FOUND');
    expect(e.status).toBe(404);
    expect(e.text).toBeUndefined();
  });

  it('fills missing optional keys with null', () => {
    const e = toHttpStatusError({ status: 400, headers: {}, text: JSON.stringify({ code: 'X', cause: 'c', context: {}, errorCategory: 8 }) }, 'r');
    expect(e.body).toEqual({ code: 'X', cause: 'c', correlationId: null, traceId: null, context: {}, resources: [], errorCategory: 8, grpcCodeValue: null, retryInfo: null, definiteAnswer: null });
  });

  it('builds PrunedOffsetError for PARTICIPANT_PRUNED_DATA_ACCESSED', () => {
    const body = cantonError({ code: 'PARTICIPANT_PRUNED_DATA_ACCESSED', errorCategory: 9, grpcCodeValue: 9, context: { earliest_offset: '17' } });
    const e = toHttpStatusError({ status: 400, headers: {}, text: JSON.stringify(body) }, 'POST /v2/updates');
    expect(e).toBeInstanceOf(PrunedOffsetError);
    expect((e as PrunedOffsetError).earliestOffset).toBe(17);
  });

  it('keeps non-Canton bodies as text with code HTTP_<status>', () => {
    const legacy = JSON.stringify({ errors: ['POST, uri: /v2/nope'], status: 404 });
    const e = toHttpStatusError({ status: 404, headers: {}, text: legacy }, 'POST /v2/nope');
    expect([e.code, e.text, e.body]).toEqual(['HTTP_404', legacy, undefined]);
  });

  it('uses Retry-After when the body carries no retryInfo', () => {
    const e = toHttpStatusError({ status: 503, headers: { 'retry-after': '2' }, text: 'try later' }, 'r');
    expect([e.retryable, e.retryAfterMs]).toEqual([true, 2000]);
  });
});

describe('parseJsonText / createResponseParser', () => {
  it('MALFORMED_JSON for invalid JSON', () => {
    expect(() => parseJsonText('{"offset": ', 'GET /v2/state/ledger-end')).toThrow(expect.objectContaining({ code: 'MALFORMED_JSON' }));
  });

  it('SCHEMA_MISMATCH with the zod issues when validating', () => {
    const parse = createResponseParser(GetLedgerEndResponse, true, 'GET /v2/state/ledger-end');
    expect(parse({ offset: '12' })).toEqual({ offset: 12 });
    try {
      parse({ offset: 'twelve' });
      throw new Error('expected a throw');
    } catch (error) {
      expect(error).toBeInstanceOf(ProtocolError);
      expect((error as ProtocolError).code).toBe('SCHEMA_MISMATCH');
      expect((error as ProtocolError).issues[0]?.path).toEqual(['offset']);
    }
  });

  it('returns the JSON unchanged when not validating', () => {
    const raw = { offset: 'twelve' };
    expect(createResponseParser(GetLedgerEndResponse, false, 'r')(raw)).toBe(raw);
  });
});
