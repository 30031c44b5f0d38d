import { Buffer } from 'node:buffer';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { InvalidArgumentError, ProtocolError, TransportError } from '../../src/errors/index.js';
import { JsonArrayScanner } from '../../src/streams/index.js';
import { StreamingElementParser } from '../../src/streams/streaming-element-parser.js';
import { generateRealisticUpdatesBody } from '../../benchmarks/lib/realistic-updates.js';
import { chunksOf, scan, scanText, splitAt } from './scan-helpers.js';

/**
 * Elements chosen to put chunk boundaries everywhere that matters: inside 2-, 3- and 4-byte UTF-8
 * sequences (é, 中, 😀), inside escapes (\" \\ \/ \u00e9 \ud83d\ude00), inside numbers and literals, inside
 * whitespace runs, and next to brackets, commas and quotes that sit inside strings.
 */
const trickyElements = [
  ' {"é" : "café", "中":"中文字符" ,"emoji":"😀😀 \\ud83d\\ude00", "k}":"v]" }',
  '\n\t"esc: \\" \\\\ \\/ \\b\\f\\n\\r\\t \\u00e9 \\u4e2d"',
  ' -12.5e+10',
  '0',
  '-0.25E-3',
  '123456789012',
  'true',
  'false',
  'null',
  ' [ ]',
  '{ }',
  '[1,[2,[3,[4,{"a":[{"b":null}]}]]]]',
  '"\\\\"',
  '"ends with two backslashes \\\\\\\\"',
  '"[{,}]:\\"]},{"',
  '{"nested":{"a":[1,-12.5e+10,0.5E-3,true,false,null,[],{}],"b":[[["deep"]]],"s":"\\"{[\\"\\\\"}}',
  '"😀"',
  '\r\n  {"update":{"Transaction":{"value":{"offset":1230,"text":"Ünïcödé ✓ 𝄞"}}}}  ',
];

const trickyText = ` \n[${trickyElements.join(',')}\n] \n`;
const trickyBytes = Buffer.from(trickyText, 'utf8');
const trickyExpected = JSON.parse(trickyText) as unknown[];

/** A few-KB payload: the tricky elements several times over. */
const fewKbText = `[${Array.from({ length: 6 }, () => trickyElements.join(',')).join(' , ')}]`;
const fewKbBytes = Buffer.from(fewKbText, 'utf8');
const fewKbExpected = JSON.parse(fewKbText) as unknown[];

function expectProtocolError(error: unknown, code: string, bytePosition: number, elementIndex?: number): ProtocolError {
  expect(error).toBeInstanceOf(ProtocolError);
  const e = error as ProtocolError;
  expect(e.code).toBe(code);
  expect(e.bytePosition).toBe(bytePosition);
  if (elementIndex !== undefined) expect(e.elementIndex).toBe(elementIndex);
  return e;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('JsonArrayScanner: element boundaries', () => {
  it('decodes the tricky payload like JSON.parse', () => {
    expect(trickyExpected).toHaveLength(trickyElements.length);
    const { values, error } = scanText(trickyBytes);
    expect(error).toBeUndefined();
    expect(values).toEqual(trickyExpected);
  });

  it('gives the same elements at every chunk size from 1 byte to the whole payload', () => {
    expect(fewKbBytes.length).toBeGreaterThan(2000);
    for (let size = 1; size <= fewKbBytes.length; size++) {
      const { values, error } = scan(chunksOf(fewKbBytes, size));
      if (error !== undefined || values.length !== fewKbExpected.length) throw new Error(`chunk size ${size}: ${String(error)}`);
      expect(values).toEqual(fewKbExpected);
    }
  });

  it('gives the same elements for a split at every byte position, and for three-way splits', () => {
    for (let cut = 0; cut <= trickyBytes.length; cut++) {
      const { values, error } = scan(splitAt(trickyBytes, [cut]));
      expect(error, `cut at ${cut}`).toBeUndefined();
      expect(values).toEqual(trickyExpected);
    }
    for (let a = 1; a < trickyBytes.length; a += 3) {
      for (let b = a; b < trickyBytes.length; b += 5) {
        const { values, error } = scan(splitAt(trickyBytes, [a, b]));
        expect(error, `cuts at ${a}, ${b}`).toBeUndefined();
        expect(values).toEqual(trickyExpected);
      }
    }
  });

  it('splits inside every multi-byte UTF-8 sequence and escape of the payload', () => {
    // positions strictly inside a UTF-8 sequence (continuation bytes) and right after a backslash
    const inside: number[] = [];
    for (let i = 1; i < trickyBytes.length; i++) {
      const c = trickyBytes[i] as number;
      if ((c & 0xc0) === 0x80 || trickyBytes[i - 1] === 0x5c) inside.push(i);
    }
    expect(inside.length).toBeGreaterThan(40);
    for (const cut of inside) {
      expect(scan(splitAt(trickyBytes, [cut])).values).toEqual(trickyExpected);
      expect(scan(splitAt(trickyBytes, [cut - 1, cut, cut + 1].filter((c) => c > 0))).values).toEqual(trickyExpected);
    }
  });

  it('gives the same elements for a realistic updates body at sampled chunk sizes', () => {
    const { body, elementCount } = generateRealisticUpdatesBody(200_000, 3);
    const expected = JSON.parse(body.toString('utf8')) as unknown[];
    expect(expected).toHaveLength(elementCount);
    for (const size of [1, 2, 3, 7, 64, 4096, body.length]) {
      for (const options of size < 8 ? [{}] : [{}, { maxBufferedElementBytes: 1024 }]) {
        const { values, error } = scan(chunksOf(body, size), options);
        expect(error).toBeUndefined();
        expect(values).toEqual(expected);
      }
    }
  });

  it('accepts plain Uint8Array chunks as well as Buffers', () => {
    const chunks = chunksOf(new Uint8Array(trickyBytes), 5).map((c) => new Uint8Array(c));
    expect(chunks.some((c) => Buffer.isBuffer(c))).toBe(false);
    expect(scan(chunks).values).toEqual(trickyExpected);
  });

  it.each([
    ['[]', []],
    ['[ ]', []],
    [' \r\n\t[ \n ] \n', []],
    ['\uFEFF[1, 2]', [1, 2]],
    ['\uFEFF \n[{"a":"b"}]\n', [{ a: 'b' }]],
    ['[[]]', [[]]],
    ['[{}]', [{}]],
    ['["a","b" , "c"]', ['a', 'b', 'c']],
    ['[1,-2,3.5e3]', [1, -2, 3500]],
  ])('handles %j', (text, expected) => {
    for (const size of [1, 2, 3, 1000]) {
      const { values, error } = scanText(text, size);
      expect(error).toBeUndefined();
      expect(values).toEqual(expected);
    }
  });

  it('delivers each element as soon as its last byte is written, before the array ends', () => {
    const seen: unknown[] = [];
    const scanner = new JsonArrayScanner((value) => seen.push(value));
    scanner.write(Buffer.from('[{"a":1},{"b":'));
    expect(seen).toEqual([{ a: 1 }]);
    scanner.write(Buffer.from('2}'));
    expect(seen).toEqual([{ a: 1 }, { b: 2 }]);
    scanner.write(Buffer.from(',3'));
    expect(seen).toHaveLength(2); // a number ends only at its delimiter
    scanner.write(Buffer.from(']'));
    expect(seen).toEqual([{ a: 1 }, { b: 2 }, 3]);
    expect(scanner.arrayClosed).toBe(true);
    scanner.end();
    expect(scanner.elementCount).toBe(3);
  });

  it('stops at once when closed from inside the element handler', () => {
    const seen: unknown[] = [];
    const scanner = new JsonArrayScanner((value) => {
      seen.push(value);
      if (seen.length === 2) scanner.close();
    });
    scanner.write(Buffer.from('[1,2,3,4]'));
    scanner.write(Buffer.from('garbage'));
    scanner.end();
    expect(seen).toEqual([1, 2]);
  });

  it('propagates an exception of the element handler and then stops', () => {
    const seen: unknown[] = [];
    const boom = new Error('boom');
    const scanner = new JsonArrayScanner((value) => {
      if (value === 2) throw boom;
      seen.push(value);
    });
    expect(() => scanner.write(Buffer.from('[1,2,3]'))).toThrow(boom);
    scanner.write(Buffer.from(',4]'));
    expect(() => scanner.end()).not.toThrow();
    expect(seen).toEqual([1]);
  });

  it('rejects a maxBufferedElementBytes that is not a positive integer', () => {
    for (const bad of [0, -1, 1.5, Number.NaN]) {
      expect(() => new JsonArrayScanner(() => undefined, { maxBufferedElementBytes: bad })).toThrow(InvalidArgumentError);
    }
  });
});

describe('JsonArrayScanner: property', () => {
  /** Serialises a JSON value with the given whitespace between all tokens. */
  function serialize(value: unknown, ws: () => string): string {
    if (Array.isArray(value)) return `[${ws()}${value.map((v) => serialize(v, ws)).join(`${ws()},${ws()}`)}${ws()}]`;
    if (value !== null && typeof value === 'object') {
      const members = Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}${ws()}:${ws()}${serialize(v, ws)}`);
      return `{${ws()}${members.join(`${ws()},${ws()}`)}${ws()}}`;
    }
    return JSON.stringify(value);
  }

  const whitespace = fc.array(fc.constantFrom('', '', '', ' ', '\n', '\t', '\r\n', '  '), { minLength: 1, maxLength: 64 });
  const chunkSizes = fc.array(fc.integer({ min: 1, max: 97 }), { minLength: 1, maxLength: 16 });

  function chunked(bytes: Buffer, sizes: readonly number[]): Buffer[] {
    const out: Buffer[] = [];
    for (let i = 0, k = 0; i < bytes.length; k++) {
      const size = sizes[k % sizes.length] as number;
      out.push(bytes.subarray(i, i + size));
      i += size;
    }
    return out;
  }

  function check(maxBufferedElementBytes: number | undefined, numRuns: number): void {
    fc.assert(
      fc.property(fc.array(fc.jsonValue({ stringUnit: 'binary', maxDepth: 4 }), { maxLength: 12 }), whitespace, chunkSizes, (elements, spaces, sizes) => {
        let n = 0;
        const text = serialize(elements, () => spaces[n++ % spaces.length] as string);
        const bytes = Buffer.from(text, 'utf8');
        const options = maxBufferedElementBytes === undefined ? {} : { maxBufferedElementBytes };
        const { values, error } = scan(chunked(bytes, sizes), options);
        expect(error).toBeUndefined();
        expect(values).toEqual(JSON.parse(text));
      }),
      { numRuns },
    );
  }

  it('decodes random JSON arrays, with random whitespace and chunking, like JSON.parse', () => {
    check(undefined, 500);
  });

  it('does the same when every element larger than 8 bytes takes the streaming path', () => {
    check(8, 200);
  });
});

describe('JsonArrayScanner: truncation', () => {
  it('reports BODY_TRUNCATED when the body stops at any byte before the closing bracket', () => {
    const end = trickyText.lastIndexOf(']');
    const closeAt = Buffer.byteLength(trickyText.slice(0, end + 1), 'utf8');
    for (let cut = 0; cut < closeAt; cut++) {
      const prefix = trickyBytes.subarray(0, cut);
      for (const size of [1, 7, Math.max(1, cut)]) {
        const { values, error } = scan(chunksOf(prefix, size));
        expect(error, `cut at ${cut}`).toBeInstanceOf(TransportError);
        expect((error as TransportError).code).toBe('BODY_TRUNCATED');
        // what was delivered is exactly the elements that ended before the cut
        expect(values).toEqual(trickyExpected.slice(0, values.length));
      }
    }
    for (let cut = closeAt; cut <= trickyBytes.length; cut++) {
      expect(scan([trickyBytes.subarray(0, cut)]).error).toBeUndefined();
    }
  });

  it('delivers every element that ended before the cut', () => {
    const text = '[1,{"a":2},"x",[3]]';
    // bytes needed to deliver each element: a number ends at its delimiter, the others at their last byte
    const needed = [3, 10, 14, 18];
    for (let cut = 0; cut < text.length; cut++) {
      const { values, error } = scanText(text.slice(0, cut), 1);
      expect((error as TransportError).code).toBe('BODY_TRUNCATED');
      expect(values).toEqual([1, { a: 2 }, 'x', [3]].slice(0, needed.filter((n) => cut >= n).length));
    }
  });

  it('treats an empty body, whitespace only and a lone BOM as truncated', () => {
    for (const text of ['', '   \n', '\uFEFF']) {
      const { error } = scanText(text);
      expect(error).toBeInstanceOf(TransportError);
      expect((error as TransportError).code).toBe('BODY_TRUNCATED');
      expect((error as TransportError).retryable).toBe(true);
    }
  });
});

describe('JsonArrayScanner: malformed bodies', () => {
  const at = (text: string, needle: string, from = 0): number => Buffer.byteLength(text.slice(0, text.indexOf(needle, from)), 'utf8');

  const cases: { name: string; text: string; position: (text: string) => number; index: number; message: RegExp }[] = [
    { name: 'a missing comma', text: '[1 2]', position: () => 3, index: 1, message: /expected ',' or ']'/ },
    { name: 'a missing comma after an object', text: '[{"a":1} {"b":2}]', position: (t) => at(t, '{"b"'), index: 1, message: /expected ','/ },
    { name: 'a trailing comma', text: '[1,]', position: () => 3, index: 1, message: /after ','/ },
    { name: 'a leading comma', text: '[,1]', position: () => 1, index: 0, message: /expected an element/ },
    { name: 'bytes after the closing bracket', text: '[1] x', position: () => 4, index: 1, message: /after the end of the array/ },
    { name: 'a second array', text: '[1][2]', position: () => 3, index: 1, message: /after the end of the array/ },
    { name: 'garbage instead of a body', text: '<html>', position: () => 0, index: 0, message: /expected a JSON array/ },
    { name: 'a missing colon in an object', text: '[1,2,{"a" 1}]', position: (t) => at(t, '1}'), index: 2, message: /expected ':'/ },
    { name: 'a trailing comma in an object', text: '[{"a":1,}]', position: (t) => at(t, '}'), index: 0, message: /unexpected token '\}'/ },
    { name: 'mismatched brackets', text: '[{"a":[1}]', position: (t) => at(t, '}'), index: 0, message: /expected ']'/ },
    { name: 'a bad literal after multi-byte text', text: '[{"é":"😀中", "b": tru}]', position: (t) => at(t, 'tru'), index: 0, message: /expected a value/ },
    { name: 'a bad escape', text: '["ok", "a\\x"]', position: (t) => at(t, '\\x'), index: 1, message: /escape/ },
    { name: 'a raw control character in a string', text: '["a\u0001b"]', position: () => 3, index: 0, message: /./ },
    { name: 'a bad number', text: '[1, 2.]', position: (t) => t.length - 1, index: 1, message: /fractional/ },
    { name: 'an unknown literal', text: '[nul]', position: () => 1, index: 0, message: /expected a value/ },
  ];

  it.each(cases)('reports $name as MALFORMED_JSON at the exact byte, whatever the chunking or path', ({ text, position, index, message }) => {
    const bytes = Buffer.from(text, 'utf8');
    const expected = position(text);
    for (const size of [1, 2, 3, 7, bytes.length]) {
      for (const options of [{}, { maxBufferedElementBytes: 1 }]) {
        const { error } = scanText(bytes, size, options);
        const e = expectProtocolError(error, 'MALFORMED_JSON', expected, index);
        expect(e.message).toMatch(message);
        expect(e.message).toContain(`byte ${expected}`);
      }
    }
  });

  it('counts byte positions across chunks from the start of the body', () => {
    const head = `[${Array.from({ length: 50 }, (_, i) => `{"n":${i},"t":"ünïcödé"}`).join(',')},`;
    const text = `${head}{"n":50,"t":"x" "y"}]`;
    const expected = at(text, '"y"');
    for (const size of [1, 13, 64, 1 << 20]) {
      const { values, error } = scanText(text, size);
      expect(values).toHaveLength(50);
      expectProtocolError(error, 'MALFORMED_JSON', expected, 50);
    }
  });

  it.each([
    ['{"a":1}', 0],
    ['  "text"', 2],
    ['\n42', 1],
    ['true', 0],
    ['null', 0],
  ])('reports the non-array top level %j as SCHEMA_MISMATCH', (text, position) => {
    const { error } = scanText(text);
    const e = expectProtocolError(error, 'SCHEMA_MISMATCH', position);
    expect(e.message).toContain('expected a JSON array');
  });

  it('delivers nothing after an error', () => {
    const seen: unknown[] = [];
    const scanner = new JsonArrayScanner((v) => seen.push(v));
    expect(() => scanner.write(Buffer.from('[1,,2]'))).toThrow(ProtocolError);
    scanner.write(Buffer.from('[3]'));
    scanner.end();
    expect(seen).toEqual([1]);
  });
});

describe('JsonArrayScanner: oversized elements', () => {
  /** Elements of tens of KiB, with multi-byte text and escapes throughout. */
  const big = Array.from({ length: 4 }, (_, i) => ({
    i,
    text: `${'Zürich 中文 😀 \\ "q" '.repeat(800 + 300 * i)}`,
    list: Array.from({ length: 400 }, (_, k) => ({ k, v: [k, -k / 8, k % 2 === 0, null, `é${k}`] })),
  }));
  const small = [1, 'two', { three: 3 }];
  const elements = [small[0], big[0], small[1], big[1], big[2], small[2], big[3]];
  const text = `[\n${elements.map((e) => JSON.stringify(e)).join(' ,\n')}\n]`;
  const bytes = Buffer.from(text, 'utf8');
  const expected = JSON.parse(text) as unknown[];

  it('parses elements above the threshold incrementally, never as one text, with identical results', () => {
    for (const e of big) expect(Buffer.byteLength(JSON.stringify(e))).toBeGreaterThan(20 * 1024);
    const ends = vi.spyOn(StreamingElementParser.prototype, 'end');
    const parse = vi.spyOn(JSON, 'parse');
    for (const size of [1, 2, 3, 7, 64, 4096, bytes.length]) {
      ends.mockClear();
      parse.mockClear();
      const { values, error } = scan(chunksOf(bytes, size), { maxBufferedElementBytes: 1024 });
      expect(error).toBeUndefined();
      expect(values).toEqual(expected);
      expect(ends).toHaveBeenCalledTimes(big.length);
      expect(parse).toHaveBeenCalledTimes(small.length);
      for (const call of parse.mock.calls) expect(String(call[0]).length).toBeLessThanOrEqual(1024);
    }
  });

  it('never holds more than the threshold of raw bytes of one element', () => {
    const held = (maxBufferedElementBytes?: number): number => {
      const values: unknown[] = [];
      const scanner = new JsonArrayScanner((v) => values.push(v), maxBufferedElementBytes === undefined ? {} : { maxBufferedElementBytes });
      const internals = scanner as unknown as { pieces: readonly Uint8Array[] };
      let max = 0;
      for (const chunk of chunksOf(bytes, 300)) {
        scanner.write(chunk);
        max = Math.max(max, internals.pieces.reduce((n, p) => n + p.length, 0));
      }
      scanner.end();
      expect(values).toEqual(expected);
      return max;
    };
    expect(held()).toBeGreaterThan(20 * 1024); // the default threshold buffers whole elements...
    const small = held(1024);
    expect(small).toBeGreaterThan(0);
    expect(small).toBeLessThanOrEqual(1024); // ...a small one switches to streaming instead
  });

  it('uses the fast path below the threshold', () => {
    const ends = vi.spyOn(StreamingElementParser.prototype, 'end');
    const { values } = scan(chunksOf(bytes, 4096));
    expect(values).toEqual(expected);
    expect(ends).not.toHaveBeenCalled();
  });

  it('reports a syntax error deep inside an oversized element at its exact byte', () => {
    const badElement = `${JSON.stringify(big[3]).slice(0, -1)},"x" "y"}`;
    const bad = `[${elements.slice(0, 6).map((e) => JSON.stringify(e)).join(',')},${badElement}]`;
    const position = Buffer.byteLength(bad.slice(0, bad.indexOf('"y"')), 'utf8');
    for (const size of [1, 3, 4096, 1 << 24]) {
      const { values, error } = scanText(bad, size, { maxBufferedElementBytes: 1024 });
      expect(values).toEqual(expected.slice(0, 6));
      expectProtocolError(error, 'MALFORMED_JSON', position, 6);
    }
  });
});

describe('JsonArrayScanner: elements ended by the next one\'s first key', () => {
  // the first element teaches the mark `,{"update":`; the others put false marks, other first keys, whitespace
  // before a comma and scalars in its way
  const texts = [
    '{"update":{"Transaction":{"value":{"offset":1,"s":"é中😀 \\" \\\\"}}}}',
    '{"update":{"x":[1,{"update":{"nested":true}},{"update":2}]}}',
    '{"update":{"s":",{\\"update\\":"}}',
    '{"other":1}',
    '{"update":{"Reassignment":{}}} \n',
    '"string"',
    '[1,{"update":3}]',
    '{"update":{"OffsetCheckpoint":{"value":{"offset":7}}}}',
  ];
  const all = [...texts, ...texts.slice(1), ...texts.slice(1)];
  const body = Buffer.from(`[${all.join(',')}]`, 'utf8');
  const expected = JSON.parse(body.toString('utf8')) as unknown[];

  function scanTexts(chunks: readonly Uint8Array[]): { values: unknown[]; texts: (string | undefined)[] } {
    const values: unknown[] = [];
    const texts: (string | undefined)[] = [];
    const scanner = new JsonArrayScanner((value, index, text) => {
      expect(index).toBe(values.length);
      values.push(value);
      texts.push(text);
    });
    for (const chunk of chunks) scanner.write(chunk);
    scanner.end();
    return { values, texts };
  }

  it('gives the same elements and texts for a split at every byte and at every chunk size', () => {
    const trimmed = all.map((t) => t.trim());
    for (let cut = 0; cut <= body.length; cut++) {
      const { values, texts } = scanTexts(splitAt(body, [cut]));
      expect(values).toEqual(expected);
      expect(texts).toEqual(trimmed);
    }
    for (let size = 1; size <= 64; size++) expect(scanTexts(chunksOf(body, size)).texts).toEqual(trimmed);
  });

  it('parses each element once when no mark lies inside one, and gives up marks that keep missing', () => {
    const parse = vi.spyOn(JSON, 'parse');
    const clean = Buffer.from(`[${Array.from({ length: 500 }, (_, i) => `{"update":{"n":${i}}}`).join(',')}]`);
    expect(scan([clean]).values).toHaveLength(500);
    expect(parse).toHaveBeenCalledTimes(500);
    parse.mockClear();
    // every element holds a false mark: each try costs a failed parse, until the scanner stops trying
    const nested = Buffer.from(`[${Array.from({ length: 500 }, (_, i) => `{"update":[{},{"update":${i}}]}`).join(',')}]`);
    expect(scan([nested]).values).toHaveLength(500);
    expect(parse.mock.calls.length).toBeGreaterThan(500);
    expect(parse.mock.calls.length).toBeLessThan(500 + 30);
  });

  it.each([
    ['a trailing comma', '{"update":{"a":1,}}', '}}'],
    ['a missing colon', '{"update":{"a" 1}}', '1}}'],
    ['an unclosed string before the next element', '{"update":{"a":"x}}', undefined],
  ])('reports %s in a later element with its index and byte, like the streaming path', (_name, bad, at) => {
    const head = `[${texts[0]},${texts[7]},`;
    const text = `${head}${bad},${texts[0]}]`;
    const bytes = Buffer.from(text, 'utf8');
    const reference = scanText(bytes, bytes.length, { maxBufferedElementBytes: 1 }).error as ProtocolError;
    const position = at === undefined ? reference.bytePosition : Buffer.byteLength(text.slice(0, head.length + bad.indexOf(at)), 'utf8');
    for (const size of [1, 7, 64, bytes.length]) {
      const { values, error } = scanText(bytes, size);
      expect(values).toEqual([JSON.parse(texts[0] as string), JSON.parse(texts[7] as string)]);
      const e = expectProtocolError(error, 'MALFORMED_JSON', position as number, 2);
      expect(e.bytePosition).toBe(reference.bytePosition);
    }
  });
});
