import { describe, expect, it } from 'vitest';
import * as d from '../../src/daml/index.js';

/** The runtime of generated code reads values exactly as the participant writes them (docs/typed-templates.md). */
describe('ledger-rx/daml schemas', () => {
  it('Int64 and Numeric are strings; Numeric carries exactly its scale', () => {
    expect(d.int64.parse('-5')).toBe('-5');
    expect(d.int64.safeParse(5).success).toBe(false);
    expect(d.int64.safeParse('1.5').success).toBe(false);
    expect(d.numeric(10).parse('1.5000000000')).toBe('1.5000000000');
    expect(d.numeric(10).safeParse('1.5').success).toBe(false);
    expect(d.numeric(0).parse('42.')).toBe('42.');
    expect(d.numeric(2).safeParse('1.0E7').success).toBe(false);
    expect(d.numeric(2).safeParse(1.5).success).toBe(false);
  });

  it('dates and timestamps in the participant form', () => {
    expect(d.date.parse('2026-07-03')).toBe('2026-07-03');
    for (const t of ['1970-01-01T00:00:00Z', '2026-07-03T10:15:30.5Z', '2026-07-03T10:15:30.000001Z']) expect(d.timestamp.parse(t)).toBe(t);
    expect(d.timestamp.safeParse('2026-07-03T10:15:30').success).toBe(false);
  });

  it('records: a trailing None the participant dropped reads as null; unknown fields are dropped; a missing required field is an error with its path', () => {
    type Lock = { holders: d.Party[]; expiresAt: d.Optional<d.Timestamp>; context: d.Optional<string> };
    const lock = d.record<Lock>({ holders: d.list(d.party), expiresAt: d.optional(d.timestamp), context: d.optional(d.text) });
    expect(lock.parse({ holders: ['a'] })).toEqual({ holders: ['a'], expiresAt: null, context: null });
    expect(lock.parse({ holders: ['a'], expiresAt: null, context: 'x', later: null })).toEqual({ holders: ['a'], expiresAt: null, context: 'x' });
    const failed = lock.safeParse({ expiresAt: '2026-01-01T00:00:00Z' });
    expect(failed.success).toBe(false);
    expect(failed.error?.issues[0]?.path).toEqual(['holders']);
  });

  it('nested Optional: an array at every level', () => {
    const nested = d.optionalLevel(d.optionalLevel(d.int64));
    expect(nested.parse([])).toEqual([]);
    expect(nested.parse([[]])).toEqual([[]]);
    expect(nested.parse([['5']])).toEqual([['5']]);
    expect(nested.safeParse(null).success).toBe(false);
    expect(nested.safeParse(['5']).success).toBe(false);
  });

  it('variants, enums, maps, unit', () => {
    type Outcome = { tag: 'Win'; value: { prize: string } } | { tag: 'Pending'; value: d.Unit };
    const outcome = d.variantOf<Outcome>({ Win: d.record<{ prize: string }>({ prize: d.numeric(2) }), Pending: d.unit });
    expect(outcome.parse({ tag: 'Pending', value: {} })).toEqual({ tag: 'Pending', value: {} });
    expect(outcome.parse({ tag: 'Win', value: { prize: '2.50' } })).toEqual({ tag: 'Win', value: { prize: '2.50' } });
    expect(outcome.safeParse({ tag: 'Lose', value: {} }).success).toBe(false);
    expect(outcome.safeParse({ tag: 'Pending' }).success).toBe(false);
    const color = d.enumeration(['Red', 'Green']);
    expect(color.parse('Red')).toBe('Red');
    expect(color.safeParse('Blue').success).toBe(false);
    expect(d.genMap(d.party, d.int64).parse([['a', '1']])).toEqual([['a', '1']]);
    expect(d.textMap(d.text).parse({ k: 'v' })).toEqual({ k: 'v' });
  });

  it('a template gives the commands of the JSON Ledger API', () => {
    type Marker = { owner: d.Party };
    const Archive = d.record<d.Unit>({});
    const Marker = d.template({
      packageId: 'ab'.repeat(32),
      packageName: 'pkg',
      moduleName: 'M.N',
      entityName: 'Marker',
      schema: d.record<Marker>({ owner: d.party }),
      choices: { Archive: d.choice<d.Unit, d.Unit>({ name: 'Archive', consuming: true, templateId: '#pkg:M.N:Marker', argument: Archive, result: d.unit }) },
      implements: [],
    });
    expect(Marker.templateId).toBe('#pkg:M.N:Marker');
    expect(Marker.templateIdWithPackageId).toBe(`${'ab'.repeat(32)}:M.N:Marker`);
    expect(Marker.create({ owner: 'Alice' })).toEqual({ CreateCommand: { templateId: '#pkg:M.N:Marker', createArguments: { owner: 'Alice' } } });
    expect(Marker.exercise('Archive', 'cid' as d.ContractId<Marker>, {})).toEqual({
      ExerciseCommand: { templateId: '#pkg:M.N:Marker', contractId: 'cid', choice: 'Archive', choiceArgument: {} },
    });
  });
});
