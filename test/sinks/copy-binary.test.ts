import fc from 'fast-check';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { CopyBinary } from '../../src/sinks/postgres/write/copy-binary.js';
import { timestampMicros } from '../../src/sinks/postgres/write/timestamp-micros.js';

const pgUrl = inject('pgUrl');

const header = 'PGCOPY\n\xff\r\n\0' + '\0'.repeat(8);
const int16 = (n: number) => Buffer.from([(n >> 8) & 0xff, n & 0xff]);
const int32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeInt32BE(n);
  return b;
};
const field = (bytes: Buffer) => Buffer.concat([int32(bytes.length), bytes]);
const int64 = (n: bigint) => {
  const b = Buffer.alloc(8);
  b.writeBigInt64BE(n);
  return b;
};

describe('CopyBinary (COPY binary format)', () => {
  it('writes the header, each row as its field count and length-prefixed fields in their types binary forms, and the trailer', () => {
    const out = new CopyBinary('strëam', 11);
    out
      .row()
      .int8(-2)
      .int4(7)
      .text('a\tb\\c\nZürich 𝄞')
      .text(null)
      .json('{"a":"\\n"}')
      .jsonb('{"k":[1]}')
      .bool(true)
      .textArray(['A::1', '', 'NULL'])
      .textArray([])
      .timestamp('2000-01-01T00:00:01.5Z', 'at');
    expect(out.rows).toBe(1);
    const expected = Buffer.concat([
      Buffer.from(header, 'latin1'),
      int16(11),
      field(Buffer.from('strëam')),
      field(int64(-2n)),
      field(int32(7)),
      field(Buffer.from('a\tb\\c\nZürich 𝄞')),
      int32(-1),
      field(Buffer.from('{"a":"\\n"}')),
      field(Buffer.concat([Buffer.from([1]), Buffer.from('{"k":[1]}')])),
      field(Buffer.from([1])),
      field(Buffer.concat([int32(1), int32(0), int32(25), int32(3), int32(1), field(Buffer.from('A::1')), field(Buffer.alloc(0)), field(Buffer.from('NULL'))])),
      field(Buffer.concat([int32(0), int32(0), int32(25)])),
      field(int64(1_500_000n)),
      int16(-1),
    ]);
    expect(Buffer.concat(out.chunks())).toEqual(expected);
    expect(new CopyBinary('s', 2).chunks()).toEqual([]);
  });

  it('copies fields by position and gives chosen rows in a chosen order with header and trailer, across chunks', () => {
    const from = new CopyBinary('s', 4);
    const big = 'é'.repeat(200 * 1024);
    const ranges: [number, number][] = [];
    for (let i = 0; i < 4; i++) {
      from.row();
      const start = from.position;
      from.text(i % 2 === 0 ? big : `id-${i}`).textArray(['p', i % 2 === 0 ? big : 'q']);
      ranges.push([start, from.position]);
      from.int8(i);
    }
    const to = new CopyBinary('s', 4);
    for (const [i, [start, end]] of [...ranges.entries()].reverse()) to.row().bytes(from, start, end).int8(i);
    const chosen = from.chunksOfRows([3, 0, 2]);
    const again = new CopyBinary('s', 4);
    for (const i of [3, 0, 2]) again.row().text(i % 2 === 0 ? big : `id-${i}`).textArray(['p', i % 2 === 0 ? big : 'q']).int8(i);
    expect(Buffer.concat(chosen).equals(Buffer.concat(again.chunks()))).toBe(true);
    const reversed = new CopyBinary('s', 4);
    for (const i of [3, 2, 1, 0]) reversed.row().text(i % 2 === 0 ? big : `id-${i}`).textArray(['p', i % 2 === 0 ? big : 'q']).int8(i);
    expect(Buffer.concat(to.chunks()).equals(Buffer.concat(reversed.chunks()))).toBe(true);
    expect(new CopyBinary('s', 2).chunksOfRows([])).toEqual([]);
  });

  it('leaves a timestamp it does not convert NULL, and lists it with its row and column', () => {
    const out = new CopyBinary('s', 3);
    out.row().timestamp('2026-01-01T00:00:00Z', 'a').timestamp('2026-01-01 00:00:00+00', 'b');
    out.row().timestamp(null, 'a').timestamp('infinity', 'b');
    expect(out.late).toEqual([
      { row: 0, column: 'b', text: '2026-01-01 00:00:00+00' },
      { row: 1, column: 'b', text: 'infinity' },
    ]);
  });
});

const two = (n: number) => String(n).padStart(2, '0');
/** RFC 3339 timestamps in the form the participant writes, with edges: any fraction length, halves, offsets. */
const rfc3339 = fc
  .record({
    year: fc.oneof(fc.integer({ min: 1, max: 9999 }), fc.constantFrom(1, 1970, 1999, 2000, 2001, 2038, 9999)),
    month: fc.integer({ min: 1, max: 12 }),
    day: fc.integer({ min: 1, max: 31 }),
    hour: fc.integer({ min: 0, max: 23 }),
    minute: fc.integer({ min: 0, max: 59 }),
    second: fc.integer({ min: 0, max: 59 }),
    fraction: fc.oneof(
      fc.constant(''),
      fc.stringMatching(/^\.[0-9]{1,12}$/),
      fc.constantFrom('.0000005', '.0000015', '.0000025', '.9999995', '.9999994', '.999999', '.5', '.1234565', '.12345650000001'),
    ),
    zone: fc.oneof(fc.constant('Z'), fc.tuple(fc.constantFrom('+', '-'), fc.integer({ min: 0, max: 15 }), fc.integer({ min: 0, max: 59 })).map(([s, h, m]) => `${s}${two(h)}:${two(m)}`)),
  })
  .map((t) => `${String(t.year).padStart(4, '0')}-${two(t.month)}-${two(t.day)}T${two(t.hour)}:${two(t.minute)}:${two(t.second)}${t.fraction}${t.zone}`);

describe.runIf(pgUrl)('timestampMicros against PostgreSQL', () => {
  const pool = new pg.Pool({ connectionString: pgUrl, max: 1 });
  afterAll(() => pool.end());

  /** PostgreSQL's value of each text as microseconds since 2000-01-01 UTC, or null where it refuses the text. */
  const postgres = async (texts: readonly string[]): Promise<(string | null)[]> => {
    const out: (string | null)[] = [];
    for (const t of texts) {
      try {
        const r = await pool.query<{ us: string }>(`SELECT ((extract(epoch FROM $1::timestamptz) - 946684800) * 1000000)::bigint::text AS us`, [t]);
        out.push((r.rows[0] as { us: string }).us);
      } catch {
        out.push(null);
      }
    }
    return out;
  };
  const ours = (t: string): string | null | undefined => {
    const v = timestampMicros(t);
    return v === undefined ? undefined : String(BigInt(v.seconds) * 1_000_000n + BigInt(v.micros));
  };

  it('converts the participant form exactly as PostgreSQL reads it (rounding to microseconds, halves to even), and declines the rest', async () => {
    const texts = [
      ...fc.sample(rfc3339, 400),
      '2000-01-01T00:00:00Z',
      '1999-12-31T23:59:59.999999Z',
      '1999-12-31T23:59:59.9999995Z',
      '0001-01-01T00:00:00Z',
      '9999-12-31T23:59:59.999999Z',
      '9999-12-31T23:59:59.9999999+15:59',
      '2024-02-29T12:00:00Z',
      '2023-02-29T12:00:00Z',
      '1900-02-29T12:00:00Z',
      '2000-02-29T12:00:00Z',
      '2026-04-31T00:00:00Z',
      '2026-01-01T00:00:00.123456789Z',
      '2026-01-01T00:00:00.Z',
      '2026-01-01T24:00:00Z',
      '2026-01-01T23:59:60Z',
      '2026-01-01T00:00:00+16:00',
      '0000-01-01T00:00:00Z',
      '2026-01-01t00:00:00z',
      '2026-01-01 00:00:00Z',
      '2026-01-01T00:00:00',
      '2026-01-01T00:00:00+0100',
      'infinity',
      'not a time',
      '',
    ];
    const expected = await postgres(texts);
    for (const [i, t] of texts.entries()) {
      const mine = ours(t);
      // declining is always allowed (PostgreSQL then reads the text itself); a value must be PostgreSQL's
      if (mine !== undefined) expect({ t, us: mine }).toEqual({ t, us: expected[i] });
    }
    // the participant's form is converted whenever PostgreSQL takes it
    for (const [i, t] of texts.entries()) {
      if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(t) && expected[i] !== null && !/T(24|\d{2}:\d{2}:60)/.test(t) && !t.startsWith('0000')) {
        expect({ t, us: ours(t) }).toEqual({ t, us: expected[i] });
      }
    }
    expect(ours('2026-01-01T00:00:00.Z')).toBeUndefined();
    expect(ours('2026-04-31T00:00:00Z')).toBeUndefined();
  });
});
