import { describe, expect, it } from 'vitest';
import { decodeBody, map, string } from '../../src/sandbox/decode/decoders.js';
import { dictionary } from '../../src/sandbox/decode/dictionary.js';

/** Unit tests of the sandbox's request decoders (the HTTP behaviour is covered by the route tests). */

describe('map', () => {
  it('keeps every key, __proto__ and Object.prototype member names included, and renders them', () => {
    const input = JSON.parse('{"__proto__":"x","constructor":"c","ok":"1"}') as unknown;
    const decoded = decodeBody(map(string), input);
    expect(Object.keys(decoded)).toEqual(['__proto__', 'constructor', 'ok']);
    expect(Object.getPrototypeOf(decoded)).toBeNull();
    expect(JSON.stringify(decoded)).toBe('{"__proto__":"x","constructor":"c","ok":"1"}');
    // A copy made by spreading keeps the key as an own property too.
    expect(JSON.stringify({ ...decoded })).toBe('{"__proto__":"x","constructor":"c","ok":"1"}');
  });

  it('does not take an object under __proto__ as the prototype', () => {
    const decoded = decodeBody(map((v) => v), JSON.parse('{"__proto__":{"polluted":true}}') as unknown);
    expect(Object.keys(decoded)).toEqual(['__proto__']);
    expect((decoded as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('checks the values at their path', () => {
    expect(() => decodeBody(map(string), JSON.parse('{"__proto__":5}') as unknown)).toThrow(/at '__proto__'/);
  });
});

describe('dictionary', () => {
  it('lets a later entry overwrite an earlier one and has no inherited members', () => {
    const d = dictionary([
      ['__proto__', 'a'],
      ['toString', 'b'],
      ['__proto__', 'c'],
    ]);
    expect(Object.entries(d)).toEqual([
      ['__proto__', 'c'],
      ['toString', 'b'],
    ]);
    expect(dictionary<string>()['constructor']).toBeUndefined();
  });
});
