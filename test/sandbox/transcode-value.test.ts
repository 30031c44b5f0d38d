import { describe, expect, it } from 'vitest';
import { SandboxError } from '../../src/sandbox/errors/sandbox-error.js';
import type { LfDataType, LfType } from '../../src/sandbox/state/lf-type.js';
import { ValueTranscoder } from '../../src/sandbox/submit/transcode-value.js';

/**
 * The sandbox's value transcoder on the shapes the richtypes DAR lacks (docs/sandbox.md#typed-creates): enums,
 * GenMaps (order, duplicate keys), nested Optionals, type parameters (including the simple form of an Optional
 * whose element is a parameter instantiated with an Optional), Numeric 0, timestamps with offsets and extra
 * digits, TextMap keys in code-point order; and the error of each stage.
 */
const pkg = 'ab'.repeat(32);
const b = (builtin: Extract<LfType, { kind: 'builtin' }>['builtin'], ...args: LfType[]): LfType => ({ kind: 'builtin', builtin, args });
const con = (qualifiedName: string, ...args: LfType[]): LfType => ({ kind: 'con', packageId: pkg, qualifiedName, args });
const v = (name: string): LfType => ({ kind: 'var', name });
const nat = (value: number): LfType => ({ kind: 'nat', value });

const dataTypes = new Map<string, LfDataType>([
  ['M:Color', { params: [], kind: 'enum', constructors: ['Red', 'Green', 'Blue'] }],
  ['M:Box', { params: ['a'], kind: 'record', fields: [{ name: 'item', type: v('a') }, { name: 'maybe', type: b('Optional', v('a')) }] }],
  ['M:Pair', { params: [], kind: 'record', fields: [{ name: 'k', type: b('Text') }, { name: 'v', type: b('Int64') }] }],
  ['M:Deep', { params: [], kind: 'record', fields: [{ name: 'x', type: b('Optional', b('Optional', b('Int64'))) }, { name: 'y', type: b('Optional', b('Text')) }] }],
  ['M:Shape', { params: [], kind: 'variant', constructors: [{ name: 'Circle', type: b('Numeric', nat(0)) }, { name: 'Dot', type: b('Unit') }] }],
]);

function transcoder(variantErrorIs500 = false): ValueTranscoder {
  return new ValueTranscoder({ dataType: (p, q) => (p === pkg ? dataTypes.get(q) : undefined), variantErrorIs500 });
}

/** The rendered JSON text of `json` at `type`, and the deferred problems. */
function run(type: LfType, json: unknown, variantErrorIs500 = false) {
  const t = transcoder(variantErrorIs500);
  const value = t.transcode(type, json);
  return { value, text: t.render(type, value), problem: t.problem };
}

/** The error body fields the transcoder throws for `json` at `type`. */
function failure(type: LfType, json: unknown, variantErrorIs500 = false): { code: string; cause: string; status: number } {
  try {
    transcoder(variantErrorIs500).transcode(type, json);
  } catch (error) {
    expect(error).toBeInstanceOf(SandboxError);
    const response = (error as SandboxError).toResponse('trace', 'participant1');
    const body = JSON.parse(response.body) as { code: string; cause: string };
    return { code: body.code, cause: body.cause, status: response.status };
  }
  throw new Error(`no error for ${JSON.stringify(json)}`);
}

describe('ValueTranscoder', () => {
  it('enums: the constructor name; an unknown one is the server 500', () => {
    expect(run(con('M:Color'), 'Green').text).toBe('"Green"');
    expect(failure(con('M:Color'), 'Purple')).toEqual({ status: 500, code: 'LEDGER_API_INTERNAL_ERROR', cause: 'Unexpected case: Purple' });
    expect(failure(con('M:Color'), 1)).toEqual({ status: 500, code: 'LEDGER_API_INTERNAL_ERROR', cause: 'Expected ujson.Str (data: 1)' });
  });

  it('GenMap: pairs ordered by key as Daml orders values, the last of equal keys kept; not an object', () => {
    expect(run(b('GenMap', b('Text'), b('Int64')), [['b', '1'], ['a', '+2'], ['b', '3']]).text).toBe('[["a","2"],["b","3"]]');
    expect(run(b('GenMap', b('Int64'), b('Unit')), [['10', {}], ['9', { x: 1 }], ['-1', {}]]).text).toBe('[["-1",{}],["9",{}],["10",{}]]');
    expect(run(b('GenMap', con('M:Color'), b('Bool')), [['Blue', true], ['Red', false]]).text).toBe('[["Red",false],["Blue",true]]');
    const pairs = [[{ k: 'b', v: '1' }, 'x'], [{ k: 'a', v: '2' }, 'y'], [{ k: 'a', v: '1' }, 'z']];
    expect(run(b('GenMap', con('M:Pair'), b('Text')), pairs).text).toBe('[[{"k":"a","v":"1"},"z"],[{"k":"a","v":"2"},"y"],[{"k":"b","v":"1"},"x"]]');
    expect(run(b('GenMap', b('Numeric', nat(2)), b('Text')), [['10', 'a'], ['9.5', 'b'], ['10.00', 'c']]).text).toBe('[["9.50","b"],["10.00","c"]]');
    expect(failure(b('GenMap', b('Text'), b('Text')), { a: 'b' }).cause).toBe('Expected ujson.Arr (data: {"a":"b"})');
  });

  it('TextMap: keys in code-point order (not UTF-16 order, not integer keys first)', () => {
    const map = { b: '1', a: '2', '10': '3', '9': '4', 'é': '5', '\u{1F600}': '6', '\uFFFF': '7' };
    expect(run(b('TextMap', b('Text')), map).text).toBe('{' + ['"10":"3"', '"9":"4"', '"a":"2"', '"b":"1"', '"é":"5"', '"\uFFFF":"7"', '"\u{1F600}":"6"'].join(',') + '}');
  });

  it('Optional (Optional a): arrays at every level, both ways; null or a bare value is the server 500', () => {
    const t = b('Optional', b('Optional', b('Int64')));
    expect(run(t, []).text).toBe('[]');
    expect(run(t, [[]]).text).toBe('[[]]');
    expect(run(t, [['+5']]).text).toBe('[["5"]]');
    expect(run(b('Optional', t), [[['5']]]).text).toBe('[[["5"]]]');
    expect(failure(t, null).cause).toBe('Expected ujson.Arr (data: null)');
    expect(failure(t, ['5']).cause).toBe('Expected ujson.Arr (data: "5")');
    // a record field of that type may not be left out (the codec reads the absent field as null)
    expect(failure(con('M:Deep'), {}).cause).toBe('Expected ujson.Arr (data: null)');
    // a nested None is not null: it stays even when trailing; a trailing simple None goes
    expect(run(con('M:Deep'), { x: [], y: null }).text).toBe('{"x":[]}');
  });

  it('type parameters: instantiated types, a field of a parameter type instantiated with an Optional may be absent, and Optional a with a = Optional X takes the simple form', () => {
    expect(run(con('M:Box', b('Int64')), { item: '+1', maybe: null }).text).toBe('{"item":"1"}');
    expect(run(con('M:Box', b('Int64')), { item: '1', maybe: '-0' }).text).toBe('{"item":"1","maybe":"0"}');
    expect(failure(con('M:Box', b('Int64')), { maybe: '1' })).toMatchObject({ code: 'COMMAND_PREPROCESSING_FAILED', cause: 'Missing non-optional fields: Set(item)' });
    const boxOfOptional = con('M:Box', b('Optional', b('Int64')));
    expect(run(boxOfOptional, {}).text).toBe('{}');
    expect(run(boxOfOptional, { item: '5', maybe: '7' }).text).toBe('{"item":"5","maybe":"7"}');
    expect(run(con('M:Box', con('M:Box', b('Text'))), { item: { item: 'x' } }).text).toBe('{"item":{"item":"x"}}');
  });

  it('Numeric: full scale, a trailing dot at scale 0, JSON numbers as doubles; the later stages deferred', () => {
    expect(run(b('Numeric', nat(0)), '42').text).toBe('"42."');
    expect(run(b('Numeric', nat(0)), '-0.000').text).toBe('"0."');
    expect(run(b('Numeric', nat(10)), '007.50').text).toBe('"7.5000000000"');
    expect(run(b('Numeric', nat(10)), 5).text).toBe('"5.0000000000"');
    expect(run(b('Numeric', nat(10)), '1.00000000000000').text).toBe('"1.0000000000"');
    expect(run(b('Numeric', nat(37)), '-0.1').text).toBe(`"-0.1${'0'.repeat(36)}"`);
    expect(run(b('Numeric', nat(0)), '1.5').problem.preprocessing?.cause).toBe('Cannot represent 1.5 as (Numeric 0) without loss of precision');
    expect(run(b('Numeric', nat(10)), 0.0001).problem.validation?.cause).toBe('Could not read Numeric string "1.0E-4"');
    expect(run(b('Numeric', nat(10)), '.5').problem.validation?.cause).toBe('Could not read Numeric string ".5"');
    expect(failure(b('Numeric', nat(10)), null)).toMatchObject({ status: 400, code: 'INVALID_ARGUMENT', cause: 'The submitted request has invalid arguments: null is not a valid numeric value' });
  });

  it('Timestamp: any offset converted to UTC, seconds always, the shortest fraction, digits past microseconds dropped; Date: ISO local dates', () => {
    expect(run(b('Timestamp'), '2026-01-01T01:00+01:00').text).toBe('"2026-01-01T00:00:00Z"');
    expect(run(b('Timestamp'), '2026-01-01T00:00:00.0000019Z').text).toBe('"2026-01-01T00:00:00.000001Z"');
    expect(run(b('Timestamp'), '1969-12-31T23:59:59.999999Z').text).toBe('"1969-12-31T23:59:59.999999Z"');
    expect(run(b('Timestamp'), '0001-01-01T00:00:00.120Z').text).toBe('"0001-01-01T00:00:00.12Z"');
    expect(run(b('Timestamp'), '0001-01-01T00:00:00+00:01').problem.validation?.cause).toMatch(/^out of bound Timestamp -/);
    expect(failure(b('Timestamp'), '2026-01-01').cause).toBe("Text '2026-01-01' could not be parsed");
    expect(run(b('Date'), '2024-02-29').text).toBe('"2024-02-29"');
    expect(failure(b('Date'), '2023-02-29').status).toBe(500);
    expect(run(b('Date'), '0000-06-01').problem.validation?.cause).toMatch(/^out of bound Date /);
  });

  it('Int64, Party, ContractId, Unit, variants', () => {
    expect(run(b('Int64'), '-0').text).toBe('"0"');
    expect(failure(b('Int64'), ' 1')).toMatchObject({ status: 400, code: 'INVALID_ARGUMENT', cause: 'The submitted request has invalid arguments: For input string: " 1"' });
    expect(run(b('Party'), 'Alice::1220').problem.validation).toBeUndefined();
    expect(run(b('Party'), '').problem.validation?.cause).toBe('Daml-LF Party is empty');
    expect(run(b('ContractId', con('M:Pair')), 'abc').problem.validation?.cause).toBe('cannot parse ContractId "abc"');
    expect(run(b('Unit'), { anything: 1 }).text).toBe('{}');
    expect(run(con('M:Shape'), { tag: 'Dot', value: null }).text).toBe('{"tag":"Dot","value":{}}');
    expect(run(con('M:Shape'), { tag: 'Circle', value: '3' }).text).toBe('{"tag":"Circle","value":"3."}');
    expect(failure(con('M:Shape'), { tag: 'Square', value: {} })).toMatchObject({ status: 400, cause: 'The submitted request has invalid arguments: Unexpected variant tag: Square' });
    expect(failure(con('M:Shape'), { tag: 'Square', value: {} }, true)).toMatchObject({ status: 500, code: 'LEDGER_API_INTERNAL_ERROR', cause: 'Unexpected variant tag: Square' });
  });
});
