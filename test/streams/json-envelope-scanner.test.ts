import { Buffer } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import { ProtocolError, TransportError } from '../../src/errors/index.js';
import { JsonEnvelopeScanner } from '../../src/streams/index.js';

function scan(text: string, splitAt: number[] = []) {
  const got: { value: unknown; index: number; text: string | undefined }[] = [];
  const scanner = new JsonEnvelopeScanner('updates', (value, index, t) => got.push({ value, index, text: t }));
  const bytes = Buffer.from(text, 'utf8');
  let from = 0;
  for (const at of [...splitAt, bytes.length]) {
    scanner.write(bytes.subarray(from, at));
    from = at;
  }
  scanner.end();
  return { got, members: Object.fromEntries(scanner.members) };
}

const page =
  '\ufeff{ "lowestPageOffsetExclusive": 4, "updates" : [ {"update":{"a":"x\\"]}"}} ,\n{"update":{"b":[1,{"c":"é"}]}} ],' +
  '"highestPageOffsetInclusive":9,"nextPageToken":"q+/=","extra":{"n":[1,"}"]},"none":null }';

describe('JsonEnvelopeScanner', () => {
  it('hands over each element of the array member with its exact text, and parses the other members, at every chunk split', () => {
    const expected = scan(page);
    expect(expected.got.map((e) => e.text)).toEqual(['{"update":{"a":"x\\"]}"}}', '{"update":{"b":[1,{"c":"é"}]}}']);
    expect(expected.got.map((e) => e.index)).toEqual([0, 1]);
    expect(expected.members).toEqual({ lowestPageOffsetExclusive: 4, highestPageOffsetInclusive: 9, nextPageToken: 'q+/=', extra: { n: [1, '}'] }, none: null });
    const length = Buffer.byteLength(page);
    for (let at = 1; at < length; at++) expect(scan(page, [at])).toEqual(expected);
    expect(scan(page, Array.from({ length: length - 1 }, (_, i) => i + 1))).toEqual(expected);
  });

  it('reads a page without the array member, with null, or with an empty array as no elements', () => {
    for (const body of ['{"lowestPageOffsetExclusive":1}', '{"updates":null,"lowestPageOffsetExclusive":1}', '{"updates":[],"lowestPageOffsetExclusive":1}', '{}']) {
      expect(scan(body).got).toEqual([]);
    }
  });

  it.each([
    ['[1,2]', ProtocolError, 'SCHEMA_MISMATCH'],
    ['{"updates":{"a":1}}', ProtocolError, 'SCHEMA_MISMATCH'],
    ['{"updates":[],"updates":[]}', ProtocolError, 'MALFORMED_JSON'],
    ['{"a":1,"a":2}', ProtocolError, 'MALFORMED_JSON'],
    ['{"a":1} x', ProtocolError, 'MALFORMED_JSON'],
    ['{"a":1 "b":2}', ProtocolError, 'MALFORMED_JSON'],
    ['{"a":tru}', ProtocolError, 'MALFORMED_JSON'],
    ['{"updates":[{"a":1},]}', ProtocolError, 'MALFORMED_JSON'],
    ['{"updates":[{"a":1}', TransportError, 'BODY_TRUNCATED'],
    ['', TransportError, 'BODY_TRUNCATED'],
  ])('rejects %j with %s %s', (body, type, code) => {
    let error: unknown;
    try {
      scan(body);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(type);
    expect((error as { code: string }).code).toBe(code);
  });

  it('stops when an element handler throws, without reading further elements', () => {
    let seen = 0;
    const scanner = new JsonEnvelopeScanner('updates', () => {
      seen++;
      throw new Error('handler failed');
    });
    expect(() => scanner.write(Buffer.from('{"updates":[1,2,3]}'))).toThrow('handler failed');
    expect(seen).toBe(1);
  });
});
