import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { pgSqlDatabase } from '../../src/checkpoints/pg-sql-database.js';
import type { SqlDatabase } from '../../src/checkpoints/sql-database.js';
import type { JsGetUpdatesResponse } from '../../src/schemas/updates.js';
import { openEmbeddedPostgres } from '../../src/sinks/postgres/open-embedded-postgres.js';
import { PostgresSink } from '../../src/sinks/postgres/postgres-sink.js';
import { CopyText } from '../../src/sinks/postgres/write/copy-text.js';
import { decodeUpdateElement } from '../../src/updates/decode-update-element.js';
import { rememberElementText } from '../../src/updates/element-text.js';

const pgUrl = inject('pgUrl');
const unique = `${process.pid}_${Date.now() % 100000}`;

const text = (c: CopyText) => Buffer.concat(c.chunks()).toString('utf8');

describe('CopyText (COPY text format)', () => {
  it('escapes backslash, tab, newline and carriage return, writes NULL as \\N, and keeps everything else as UTF-8', () => {
    const out = new CopyText('stream\tname');
    out.row().text('a\\b\tc\nd\re').text(null).text('').int(-42).bool(true).textArray(['A::1', 'q"uote', 'back\\slash', 'NULL']);
    out.row().text('Zürich ✅ 𝄞').text('\\N').bool(false);
    expect(out.rows).toBe(2);
    expect(text(out)).toBe(
      'stream\\tname\ta\\\\b\\tc\\nd\\re\t\\N\t\t-42\tt\t{A::1,"q\\\\"uote","back\\\\\\\\slash","NULL"}\n' + 'stream\\tname\tZürich ✅ 𝄞\t\\\\N\tf\n',
    );
  });

  it('splits long data over chunks and gives a value longer than a chunk a chunk of its own', () => {
    const out = new CopyText('s');
    const long = 'x'.repeat(600 * 1024);
    for (let i = 0; i < 3; i++) out.row().text(long);
    const chunks = out.chunks();
    expect(chunks.length).toBeGreaterThan(1);
    expect(Buffer.concat(chunks).toString('utf8')).toBe(`s\t${long}\n`.repeat(3));
    expect(new CopyText('s').chunks()).toEqual([]);
  });

  it('writes JSON text with its backslashes doubled, and a text with its bytes as they are unless they need escaping', () => {
    const out = new CopyText('s');
    const json = JSON.stringify({ a: 'tab\there "q" \\ Zürich', b: [1, null] });
    out.row().json(json).json(null).json('x'.repeat(300) + '\\');
    const clean = '{"a":"Zürich ✅ 𝄞"}';
    const spaced = '{\t"a":\r1 }';
    const escaped = '{"a":"\\n"}';
    out.row().textWithBytes(clean, Buffer.from(clean)).textWithBytes(spaced, new Uint8Array(Buffer.from(spaced))).textWithBytes(escaped, Buffer.from(escaped));
    expect(text(out)).toBe(
      `s\t${json.replaceAll('\\', '\\\\')}\t\\N\t${'x'.repeat(300)}\\\\\n` + `s\t${clean}\t{\\t"a":\\r1 }\t{"a":"\\\\n"}\n`,
    );
  });

  it('copies written fields by their positions, and gives chosen rows in a chosen order, also across chunks', () => {
    const from = new CopyText('s');
    const big = 'y'.repeat(200 * 1024);
    const ranges: [number, number][] = [];
    for (let i = 0; i < 4; i++) {
      from.row().int(i);
      const start = from.position;
      from.text(`id-${i}`).json(i % 2 === 0 ? JSON.stringify(big) : '{"k":"a\\b"}').textArray(['A::1', 'b c']);
      ranges.push([start, from.position]);
      from.bool(true);
    }
    const to = new CopyText('t');
    for (const [i, [start, end]] of [...ranges.entries()].reverse()) to.row().bytes(from, start, end).int(i);
    const shared = (i: number) => `\tid-${i}\t${i % 2 === 0 ? JSON.stringify(big) : '{"k":"a\\\\b"}'}\t{A::1,"b c"}`;
    expect(text(to)).toBe([3, 2, 1, 0].map((i) => `t${shared(i)}\t${i}\n`).join(''));
    const rows = from.chunksOfRows([3, 0, 2]);
    expect(Buffer.concat(rows).toString('utf8')).toBe([3, 0, 2].map((i) => `s\t${i}${shared(i)}\tt\n`).join(''));
    expect(new CopyText('s').chunksOfRows([])).toEqual([]);
  });
});

/** Text for a `text` column: any Unicode but NUL, which PostgreSQL's text cannot hold (as before COPY). */
const anyText = fc.string({ unit: 'binary', maxLength: 24 }).map((s) => s.replaceAll('\u0000', ''));
const nasty = fc.constantFrom('', 'NULL', '\\N', '\\.', 'a\tb', 'line\nbreak', 'cr\r', 'back\\slash', '"q"', "it's", '{x,y}', ' sp ', 'Zürich ✅', '𝄞');
const field = fc.oneof(anyText, nasty);
/** A JSON value for a jsonb column: `\u0000` in a string is refused by jsonb (as before COPY), so it has none. */
const payload = fc.jsonValue({ maxDepth: 3, stringUnit: 'binary' }).filter((v) => !JSON.stringify(v).includes('\\u0000'));
const parties = fc.array(field, { maxLength: 3 });

interface Case {
  readonly updateId: string;
  readonly workflowId: string;
  readonly argument: unknown;
  readonly key: unknown;
  readonly signatories: string[];
  readonly observers: string[];
  readonly choice: string;
  readonly choiceArgument: unknown;
  readonly result: unknown;
  /** Only in the element's text (the `json` column keeps it as sent): may hold `\u0000`. */
  readonly extra: unknown;
  /** Whitespace between the element's tokens, as a server may send it (kept byte for byte). */
  readonly spacing: string;
  /** Whether the transport kept the element's bytes (a WebSocket frame), which the sink then copies. */
  readonly withBytes: boolean;
}

const cases = fc.record<Case>({
  updateId: field,
  workflowId: field,
  argument: payload,
  key: fc.option(payload, { nil: null }),
  signatories: parties,
  observers: parties,
  choice: field,
  choiceArgument: payload,
  result: fc.option(payload, { nil: null }),
  extra: fc.jsonValue({ maxDepth: 2, stringUnit: 'binary' }),
  spacing: fc.constantFrom('', ' ', '\t', '\r', ' \t\r '),
  withBytes: fc.boolean(),
});

/** The element of `c` at `offset` and its text as a server might send it (`c.spacing` inside its outer braces). */
function element(c: Case, offset: number): { element: JsGetUpdatesResponse; text: string } {
  const contractId = `c-${offset}-${c.updateId}`;
  const value = {
    update: {
      Transaction: {
        value: {
          updateId: c.updateId,
          commandId: 'cmd',
          workflowId: c.workflowId,
          effectiveAt: '2026-01-01T00:00:00.123456Z',
          offset,
          synchronizerId: 'sync::1',
          recordTime: '2026-01-01T00:00:00Z',
          extra: c.extra,
          events: [
            {
              CreatedEvent: {
                offset, nodeId: 0, contractId, templateId: 'pkg:Mod.Sub:T', contractKey: c.key, createArgument: c.argument, witnessParties: c.signatories,
                signatories: c.signatories, observers: c.observers, createdAt: '2026-01-01T00:00:00Z', packageName: 'demo', acsDelta: true,
              },
            },
            {
              ExercisedEvent: {
                offset, nodeId: 1, contractId, templateId: 'pkg:Mod.Sub:T', choice: c.choice, choiceArgument: c.choiceArgument, actingParties: c.signatories,
                consuming: false, witnessParties: c.observers, lastDescendantNodeId: 1, exerciseResult: c.result, packageName: 'demo', acsDelta: false,
              },
            },
          ],
        },
      },
    },
  };
  const compact = JSON.stringify(value);
  const spaced = `{${c.spacing}${compact.slice(1, -1)}${c.spacing}}`;
  const decoded = decodeUpdateElement(JSON.parse(spaced), 0, { validate: false });
  rememberElementText(decoded, spaced, c.withBytes ? new Uint8Array(Buffer.from(spaced)) : undefined);
  return { element: decoded, text: spaced };
}

/** Stores random batches through a PostgresSink on `database` and reads every column back. */
async function roundTrips(database: SqlDatabase, schema: string, runs: number): Promise<void> {
  const sink = new PostgresSink({ database, schema, streamName: 'p' });
  await sink.start();
  let offset = 0;
  try {
    await fc.assert(
      fc.asyncProperty(fc.array(cases, { minLength: 1, maxLength: 4 }), async (batch) => {
        const written = batch.map((c) => ({ c, offset: ++offset, ...element(c, offset) }));
        await sink.write(written.map((w) => w.element));
        expect(await sink.commit({ offset, synchronizerTimes: [] })).toMatchObject({ applied: true, updates: batch.length });
        for (const w of written) {
          const u = await database.query<Record<string, unknown>>(`SELECT element::text AS element, update_id, workflow_id FROM updates WHERE stream_name = 'p' AND ledger_offset = $1`, [w.offset]);
          expect(u.rows).toEqual([{ element: w.text, update_id: w.c.updateId, workflow_id: w.c.workflowId }]);
          // a key or result of null is SQL NULL; an argument of null is JSON null (as the rows always had it)
          const same = (column: string, value: unknown, nullable = true) =>
            `${column} IS NOT DISTINCT FROM ${value === null && nullable ? 'NULL' : `'${JSON.stringify(value).replaceAll("'", "''")}'::jsonb`}`;
          const created = await database.query<Record<string, unknown>>(
            `SELECT ${same('create_argument', w.c.argument, false)} AS argument, ${same('contract_key', w.c.key)} AS key, signatories, observers, witness_parties
             FROM created_events WHERE stream_name = 'p' AND ledger_offset = $1`,
            [w.offset],
          );
          expect(created.rows).toEqual([{ argument: true, key: true, signatories: w.c.signatories, observers: w.c.observers, witness_parties: w.c.signatories }]);
          const active = await database.query<Record<string, unknown>>(
            `SELECT ${same('create_argument', w.c.argument, false)} AS argument, ${same('contract_key', w.c.key)} AS key, signatories, observers FROM active_contracts
             WHERE stream_name = 'p' AND created_offset = $1`,
            [w.offset],
          );
          expect(active.rows).toEqual([{ argument: true, key: true, signatories: w.c.signatories, observers: w.c.observers }]);
          const exercised = await database.query<Record<string, unknown>>(
            `SELECT choice, ${same('choice_argument', w.c.choiceArgument, false)} AS argument, ${same('exercise_result', w.c.result)} AS result, acting_parties
             FROM exercised_events WHERE stream_name = 'p' AND ledger_offset = $1`,
            [w.offset],
          );
          expect(exercised.rows).toEqual([{ choice: w.c.choice, argument: true, result: true, acting_parties: w.c.signatories }]);
        }
      }),
      { numRuns: runs },
    );
  } finally {
    await sink.close();
  }
}

describe.runIf(pgUrl)('COPY round trip (PostgreSQL server)', () => {
  const pools: pg.Pool[] = [];
  afterAll(async () => {
    await Promise.all(pools.map((p) => p.end()));
  });

  it('stores random payloads and nasty texts byte for byte: the element as sent, arguments equal as jsonb, ids and parties as they were', async () => {
    const schema = `copy_rt_${unique}`;
    const p = new pg.Pool({ connectionString: pgUrl, max: 2, options: `-c search_path=${schema}` });
    pools.push(p);
    await roundTrips(pgSqlDatabase(p), schema, 60);
  });

  it('sends COPY data of many chunks, and a value longer than a chunk, as the rows they hold', async () => {
    const schema = `copy_big_${unique}`;
    const p = new pg.Pool({ connectionString: pgUrl, max: 2, options: `-c search_path=${schema}` });
    pools.push(p);
    const sink = new PostgresSink({ database: pgSqlDatabase(p), schema, streamName: 'big' });
    await sink.start();
    try {
      const base: Case = { updateId: 'u', workflowId: '', argument: null, key: null, signatories: ['A::1'], observers: [], choice: 'c', choiceArgument: {}, result: null, extra: null, spacing: '', withBytes: true };
      // 400 updates of ~6 KB (several chunks per table) and one argument of 700 KB (a chunk of its own)
      const cases = Array.from({ length: 401 }, (_, i): Case => ({ ...base, updateId: `u${i}`, argument: { text: i === 200 ? 'é\\'.repeat(350_000) : `${i}:`.padEnd(3000, 'x') }, withBytes: i % 2 === 0 }));
      for (const [i, c] of cases.entries()) sink.add(element(c, i + 1).element);
      expect(await sink.commit({ offset: cases.length, synchronizerTimes: [] })).toMatchObject({ applied: true, updates: cases.length });
      const rows = await p.query<{ n: string; argument: string; active: string }>(
        `SELECT count(*) AS n, sum(length(create_argument->>'text'))::text AS argument, (SELECT count(*) FROM active_contracts WHERE stream_name = 'big') AS active
         FROM created_events WHERE stream_name = 'big'`,
      );
      expect(rows.rows).toEqual([{ n: '401', argument: String(400 * 3000 + 700_000), active: '401' }]);
      const big = await p.query<{ ok: boolean }>(`SELECT create_argument->>'text' = $1 AS ok FROM active_contracts WHERE stream_name = 'big' AND created_offset = 201`, ['é\\'.repeat(350_000)]);
      expect(big.rows).toEqual([{ ok: true }]);
    } finally {
      await sink.close();
    }
  });
});

describe('COPY round trip (embedded PGlite)', () => {
  it('stores the same payloads the same way through COPY FROM /dev/blob', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ledger-rx-copy-'));
    const embedded = await openEmbeddedPostgres(dir);
    try {
      await roundTrips(embedded.database, 'public', 15);
    } finally {
      await embedded.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
