import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkInstant } from '../../src/client/validation/check-instant.js';
import { decodeBody, map, string, timestamp } from '../../src/sandbox/decode/decoders.js';
import { dictionary } from '../../src/sandbox/decode/dictionary.js';
import { SandboxError } from '../../src/sandbox/errors/sandbox-error.js';
import { compareInstants } from '../../src/sandbox/decode/compare-instants.js';

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

/** The decoded instant, or the decode failure's text. */
function decodeInstant(text: string): string {
  try {
    return decodeBody(timestamp, text);
  } catch (e) {
    if (e instanceof SandboxError) return `failure: ${e.message}`;
    throw e;
  }
}

function clientAccepts(text: string): boolean {
  try {
    checkInstant(text, 'field');
    return true;
  } catch {
    return false;
  }
}

describe('timestamp (Instant.parse)', () => {
  it.each([
    ['2026-06-30T10:15:30Z', '2026-06-30T10:15:30Z'],
    ['2026-06-30t10:15:30z', '2026-06-30T10:15:30Z'],
    ['2026-06-30T10:15:30+01:00', '2026-06-30T09:15:30Z'],
    ['2026-06-30T10:15:30-05:30', '2026-06-30T15:45:30Z'],
    ['2026-06-30T23:30:00-01:00', '2026-07-01T00:30:00Z'],
    ['2026-01-01T00:30:00+01:00', '2025-12-31T23:30:00Z'],
    ['2024-03-01T00:00:00+00:00:30', '2024-02-29T23:59:30Z'],
    ['2026-06-30T10:15:30.5Z', '2026-06-30T10:15:30.500Z'],
    ['2026-06-30T10:15:30.000Z', '2026-06-30T10:15:30Z'],
    ['2026-06-30T10:15:30.1234567+18:00', '2026-06-29T16:15:30.123456700Z'],
    ['2026-06-30T10:15:30.123456789-18:00', '2026-07-01T04:15:30.123456789Z'],
    ['2016-12-31T23:59:60Z', '2016-12-31T23:59:59Z'],
    ['2016-12-31T23:59:60.25+01:00', '2016-12-31T22:59:59.250Z'],
    ['+12345-01-01T00:00:00Z', '+12345-01-01T00:00:00Z'],
    ['-0001-12-31T23:59:59Z', '-0001-12-31T23:59:59Z'],
    ['0000-01-01T01:00:00+02:00', '-0001-12-31T23:00:00Z'],
    ['+1000000000-12-31T23:59:59.999999999Z', '+1000000000-12-31T23:59:59.999999999Z'],
    // Checked against Instant.parse (JDK 17 and 25): a point without digits is a zero fraction, the leap
    // second is read in local time, offsets up to ±18:00.
    ['2026-06-30T10:15:30.Z', '2026-06-30T10:15:30Z'],
    ['2016-12-31T23:59:60+01:00', '2016-12-31T22:59:59Z'],
    ['+1000000000-12-31T23:59:60Z', '+1000000000-12-31T23:59:59Z'],
    ['2026-06-30T10:15:30+17:59:59', '2026-06-29T16:15:31Z'],
    ['2026-06-30T10:15:30-00:00', '2026-06-30T10:15:30Z'],
    ['-1000000000-01-01T00:00:00-00:00:01', '-1000000000-01-01T00:00:01Z'],
    // hour 24 with a zero fraction is the next midnight
    ['2026-06-30T24:00:00Z', '2026-07-01T00:00:00Z'],
    ['2026-06-30T24:00:00.000+01:00', '2026-06-30T23:00:00Z'],
    ['2026-12-31T24:00:00Z', '2027-01-01T00:00:00Z'],
  ])('accepts %s as %s', (text, utc) => {
    expect(decodeInstant(text)).toBe(utc);
  });

  it.each([
    '2026-06-30T10:15Z', // seconds are required
    '2026-06-30T10:15:30', // no zone
    '2026-06-30 10:15:30Z',
    '2026-06-30T10:15:30.1234567890Z',
    '2026-02-30T00:00:00Z',
    '2026-13-01T00:00:00Z',
    '2026-06-30T24:00:00.000000001Z', // hour 24 only with a zero fraction, as Java reads it
    '2026-06-30T24:00:01Z',
    '2026-06-30T24:01:00Z',
    '2026-06-30T10:15:60Z', // a leap second only at 23:59
    '2016-12-31T22:59:60-01:00', // 23:59 UTC, but the leap second is judged in local time
    '2026-06-30T10:15:30+18:00:01',
    '2026-06-30T10:15:30+01:00:60',
    '2026-06-30T10:60:00Z',
    '2026-06-30T10:15:30+18:01',
    '2026-06-30T10:15:30+19:00',
    '2026-06-30T10:15:30+01:60',
    '2026-06-30T10:15:30+01',
    '2026-06-30T10:15:30+0100',
    '2026-06-30T10:15:30 +01:00',
    '+2026-06-30T10:15:30Z', // "+" only beyond four digits
    '12345-06-30T10:15:30Z', // more than four digits need a sign
    '-0000-01-01T00:00:00Z',
    '+1000000001-01-01T00:00:00Z',
    '+1000000000-12-31T23:59:59-00:00:01',
    '２026-06-30T10:15:30Z',
  ])('refuses %s with the decode failure', (text) => {
    expect(decodeInstant(text)).toBe(`failure: Invalid value for: body (Text '${text}' could not be parsed as an instant)`);
  });

  it('accepts exactly the instants the client accepts, refuses what Instant.parse refuses, and converts to UTC', () => {
    const pad = (n: number, w = 2) => String(n).padStart(w, '0');
    const year = fc.oneof(
      fc.integer({ min: 0, max: 9999 }).map((y) => pad(y, 4)),
      fc.tuple(fc.constantFrom('+', '-'), fc.integer({ min: 10_000, max: 999_999_999 })).map(([sign, y]) => `${sign}${y}`),
    );
    const zone = fc.oneof(
      fc.constantFrom('Z', 'z'),
      fc.tuple(fc.constantFrom('+', '-'), fc.integer({ min: 0, max: 19 }), fc.integer({ min: 0, max: 60 }), fc.option(fc.integer({ min: 0, max: 60 }))).map(
        ([sign, h, m, s]) => `${sign}${pad(h)}:${pad(m)}${s === null ? '' : `:${pad(s)}`}`,
      ),
    );
    const text = fc
      .tuple(
        year,
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 31 }),
        fc.constantFrom('T', 't'),
        fc.integer({ min: 0, max: 23 }),
        fc.integer({ min: 0, max: 59 }),
        fc.integer({ min: 0, max: 60 }),
        fc.option(fc.stringMatching(/^[0-9]{0,9}$/)),
        zone,
      )
      .map(([y, mo, d, t, h, mi, s, f, z]) => `${y}-${pad(mo)}-${pad(d)}${t}${pad(h)}:${pad(mi)}:${pad(s)}${f === null ? '' : `.${f}`}${z}`);
    fc.assert(
      fc.property(text, (t) => {
        const decoded = decodeInstant(t);
        const zoneMatch = /([+-])(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(t);
        const offsetOk = !zoneMatch || (Number(zoneMatch[3]) <= 59 && Number(zoneMatch[4] ?? 0) <= 59 && Number(zoneMatch[2]) * 3600 + Number(zoneMatch[3]) * 60 + Number(zoneMatch[4] ?? 0) <= 18 * 3600);
        const leapOk = !/:60(\.\d*)?([zZ+-]|$)/.test(t.slice(11)) || /[tT]23:59:60/.test(t);
        // Instant.parse refuses offsets beyond ±18:00 and leap seconds other than 23:59:60; the client
        // and the sandbox accept the same texts.
        if (!offsetOk || !leapOk) expect(decoded, t).toMatch(/^failure/);
        expect(!decoded.startsWith('failure'), t).toBe(clientAccepts(t));
        const javaAccepts = clientAccepts(t);
        if (javaAccepts && /^\d{4}-/.test(t) && !/:60/.test(t) && !/:\d{2}:\d{2}:\d{2}$/.test(t)) {
          // Date.parse reads `Z` and `±HH:MM` offsets (at millisecond precision): the same instant.
          const reference = Date.parse(t.toUpperCase().replace(/(\.\d{3})\d+/, '$1'));
          if (!Number.isNaN(reference) && Number(t.slice(0, 4)) >= 100) expect(Date.parse(decoded.replace(/(\.\d{3})\d+/, '$1')), t).toBe(reference);
        }
      }),
      { numRuns: 2000, seed: 20261122 },
    );
  });
});

describe('compareInstants', () => {
  it('orders by time whatever the fraction length, offset or year width', () => {
    expect(compareInstants('2026-01-01T00:00:00Z', '2026-01-01T00:00:00.5Z')).toBe(-1);
    expect(compareInstants('2026-01-01T01:00:00+01:00', '2026-01-01T00:00:00.000Z')).toBe(0);
    expect(compareInstants('2026-01-01T00:30:00+01:00', '2026-01-01T00:00:00Z')).toBe(-1);
    expect(compareInstants('+10000-01-01T00:00:00Z', '9999-12-31T23:59:59.999999999Z')).toBe(1);
    expect(compareInstants('-0001-01-01T00:00:00Z', '0000-01-01T00:00:00Z')).toBe(-1);
    expect(() => compareInstants('yesterday', '2026-01-01T00:00:00Z')).toThrow(RangeError);
  });
});
