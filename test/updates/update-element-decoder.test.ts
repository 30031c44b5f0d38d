import { describe, expect, it } from 'vitest';
import { ProtocolError } from '../../src/errors/index.js';
import { elementText, offsetOrderOf, updateDecoding, updateElementDecoder, updateOffset } from '../../src/updates/index.js';
import { cp, tx } from '../support/fake-updates-source.js';

describe('offsetOrderOf / updateDecoding', () => {
  it.each([
    [{ beginExclusive: 4 }, { descending: false, beginExclusive: 4, endInclusive: undefined }],
    [{ beginExclusive: 4, endInclusive: null, descendingOrder: null }, { descending: false, beginExclusive: 4, endInclusive: undefined }],
    [{ beginExclusive: 0, endInclusive: 9, descendingOrder: true }, { descending: true, beginExclusive: 0, endInclusive: 9 }],
    [{ beginExclusive: 0, endInclusive: 9, descendingOrder: false }, { descending: false, beginExclusive: 0, endInclusive: 9 }],
  ])('%j asks for %j', (request, order) => {
    expect(offsetOrderOf(request)).toEqual(order);
  });

  it('defaults validate to the client setting and rawText to false', () => {
    const order = offsetOrderOf({ beginExclusive: 1 });
    expect(updateDecoding({ beginExclusive: 1 }, {}, true)).toEqual({ validate: true, rawText: false, order });
    expect(updateDecoding({ beginExclusive: 1 }, { validate: undefined }, false)).toEqual({ validate: false, rawText: false, order });
    expect(updateDecoding({ beginExclusive: 1 }, { validate: false, rawText: true }, true)).toEqual({ validate: false, rawText: true, order });
  });
});

describe('updateElementDecoder (what every transport calls per element)', () => {
  const texts = (offsets: number[]) => offsets.map((o) => JSON.stringify(tx(o)));

  it('decodes values from any source, checks their order against the request and keeps the text with rawText', () => {
    for (const validate of [true, false]) {
      const decode = updateElementDecoder(updateDecoding({ beginExclusive: 10 }, { validate, rawText: true }, true));
      const [a, b] = texts([11, 12]) as [string, string];
      const first = decode(JSON.parse(a), 0, a);
      expect(updateOffset(first)).toBe(11);
      expect(elementText(first)).toBe(a);
      const repeated = decode(cp(11), 1, undefined); // a checkpoint may repeat the position reached
      expect(elementText(repeated)).toBeUndefined();
      expect(updateOffset(decode(JSON.parse(b), 2, b))).toBe(12);
      let error: unknown;
      try {
        decode(tx(12), 3, undefined);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ProtocolError);
      expect(error).toMatchObject({ code: 'OFFSET_NOT_INCREASING', offset: 12, elementIndex: 3 });
    }
  });

  it('keeps no text without rawText, and a new decoder starts a new answer', () => {
    const decoding = updateDecoding({ beginExclusive: 0, endInclusive: 5, descendingOrder: true }, {}, false);
    const [text] = texts([5]) as [string];
    const element = updateElementDecoder(decoding)(JSON.parse(text), 0, text);
    expect(elementText(element)).toBeUndefined();
    expect(updateOffset(updateElementDecoder(decoding)(tx(5), 0, undefined))).toBe(5);
    expect(() => updateElementDecoder(decoding)(tx(6), 0, undefined)).toThrow(/after endInclusive 5/);
  });
});
