import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as d from '../../src/daml/index.js';
import { parseDamlValue } from '../../src/daml/runtime/daml-schemas.js';

/**
 * The typed operators' fast path (docs/typed-templates.md, "Cost of typing"): `parseDamlValue` gives the value
 * itself when zod would give it back unchanged, and otherwise zod's result; so its answer never depends on the
 * path. Checked on every builder, with random values near the valid ones (fields dropped, added, reordered,
 * replaced by any JSON value), against `schema.safeParse`: the same success, the same data with the same key
 * order, and the input itself only when zod's output is identical to it.
 */
type Shape = { readonly tag: 'Circle'; readonly value: d.Numeric } | { readonly tag: 'Dot'; readonly value: d.Unit };
type Row = {
  n: d.Int64;
  amount: d.Numeric;
  when: d.Timestamp;
  day: d.DamlDate;
  flag: boolean;
  who: d.Party;
  cid: d.ContractId<unknown>;
  note: d.Optional<string>;
  deep: d.OptionalLevel<d.OptionalLevel<d.Int64>>;
  tags: string[];
  attrs: d.TextMap<d.Int64>;
  pairs: d.GenMap<string, d.Unit>;
  colour: 'Red' | 'Green';
  shape: Shape;
  tail: d.Optional<d.Int64>;
};
const Shape: d.Schema<Shape> = d.variantOf<Shape>({ Circle: d.numeric(0), Dot: d.unit });
const Row = d.record<Row>({
  n: d.int64,
  amount: d.numeric(10),
  when: d.timestamp,
  day: d.date,
  flag: d.bool,
  who: d.party,
  cid: d.contractId<unknown>(),
  note: d.optional(d.text),
  deep: d.optionalLevel(d.optionalLevel(d.int64)),
  tags: d.list(d.text),
  attrs: d.textMap(d.int64),
  pairs: d.genMap(d.text, d.unit),
  colour: d.enumeration(['Red', 'Green'] as const),
  shape: d.lazy(() => Shape),
  tail: d.optional(d.int64),
});

const int64 = fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map(String);
const valid: fc.Arbitrary<Record<string, unknown>> = fc.record({
  n: int64,
  amount: fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }).map((u) => `${u < 0n ? '-' : ''}${(u < 0n ? -u : u) / 10n ** 10n}.${String((u < 0n ? -u : u) % 10n ** 10n).padStart(10, '0')}`),
  when: fc.constantFrom('2026-07-03T10:15:30.5Z', '1970-01-01T00:00:00Z'),
  day: fc.constantFrom('2026-07-03', '0001-01-01'),
  flag: fc.boolean(),
  who: fc.string(),
  cid: fc.string(),
  note: fc.option(fc.string(), { nil: null }),
  deep: fc.constantFrom([], [[]], [['5']]),
  tags: fc.array(fc.string(), { maxLength: 3 }),
  attrs: fc.dictionary(fc.string().filter((k) => k !== '__proto__'), int64, { maxKeys: 3, noNullPrototype: true }),
  pairs: fc.array(fc.tuple(fc.string(), fc.constant({})), { maxLength: 3 }),
  colour: fc.constantFrom('Red', 'Green'),
  shape: fc.oneof(fc.constant({ tag: 'Dot', value: {} }), fc.nat().map((n) => ({ tag: 'Circle', value: `${n}.` }))),
  tail: fc.option(int64, { nil: null }),
});

/** A valid value, or one changed near its shape. */
const nearValid = fc.tuple(valid, fc.nat(), fc.jsonValue(), fc.constantFrom('drop', 'add', 'swap', 'replace', 'nest', 'none')).map(([v, i, any, how]) => {
  const entries = Object.entries(v);
  const k = i % entries.length;
  switch (how) {
    case 'drop':
      return Object.fromEntries(entries.filter((_, j) => j !== k));
    case 'add':
      return { ...v, extra: any };
    case 'swap':
      return Object.fromEntries([entries[k], ...entries.filter((_, j) => j !== k)] as [string, unknown][]);
    case 'replace':
      return Object.fromEntries(entries.map(([key, x], j) => [key, j === k ? any : x]));
    case 'nest':
      return { ...v, shape: { value: v['shape'] && (v['shape'] as { value: unknown }).value, tag: (v['shape'] as { tag: unknown }).tag }, attrs: { ...(v['attrs'] as object), x: any } };
    default:
      return v;
  }
});

describe('parseDamlValue', () => {
  it('answers as schema.safeParse does, on valid and nearly valid values', () => {
    let fast = 0;
    fc.assert(
      fc.property(nearValid, (value) => {
        const ours = parseDamlValue(Row, value);
        const zods = Row.safeParse(value);
        expect(ours.success).toBe(zods.success);
        if (ours.success && zods.success) {
          expect(JSON.stringify(ours.data)).toBe(JSON.stringify(zods.data));
          if (ours.data === value) fast++;
        }
      }),
      { numRuns: 400, seed: 7 },
    );
    expect(fast).toBeGreaterThan(20); // the fast path is taken (valid values in the participant's form)
  });

  it('takes zod when zod would change the value: a trailing None left out, an unknown field, keys out of order', () => {
    const rec = d.record<{ a: d.Int64; b: d.Optional<string> }>({ a: d.int64, b: d.optional(d.text) });
    const inOrder = { a: '1', b: null };
    expect(parseDamlValue(rec, inOrder)).toEqual({ success: true, data: inOrder });
    expect((parseDamlValue(rec, inOrder) as { data: unknown }).data).toBe(inOrder);
    for (const changed of [{ a: '1' }, { a: '1', b: null, c: null }, { b: null, a: '1' }]) {
      const r = parseDamlValue(rec, changed);
      expect(r.success).toBe(true);
      expect((r as { data: unknown }).data).not.toBe(changed);
      expect(JSON.stringify((r as { data: unknown }).data)).toBe('{"a":"1","b":null}');
    }
  });
});
