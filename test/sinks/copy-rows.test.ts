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
import { decodeUpdateElement } from '../../src/updates/decode-update-element.js';
import { rememberElementText } from '../../src/updates/element-text.js';

const pgUrl = inject('pgUrl');
const unique = `${process.pid}_${Date.now() % 100000}`;

/** Text for a `text` column: any Unicode but NUL, which PostgreSQL's text cannot hold (as before COPY). */
const anyText = fc.string({ unit: 'binary', maxLength: 24 }).map((s) => s.replaceAll('\u0000', ''));
const nasty = fc.constantFrom('', 'NULL', '\\N', '\\.', 'a\tb', 'line\nbreak', 'cr\r', 'back\\slash', '"q"', "it's", '{x,y}', ' sp ', 'Zürich ✅', '𝄞');
const field = fc.oneof(anyText, nasty);
/** A JSON value for a jsonb column: `\u0000` in a string is refused by jsonb (as before COPY), so it has none. */
const payload = fc.jsonValue({ maxDepth: 3, stringUnit: 'binary' }).filter((v) => !JSON.stringify(v).includes('\\u0000'));
const parties = fc.array(field, { maxLength: 3 });
const two = (n: number) => String(n).padStart(2, '0');
/**
 * A timestamp as a participant writes it (RFC 3339, any fraction, `Z` or an offset; the binary format converts it)
 * or in another form PostgreSQL reads (the binary format leaves it to PostgreSQL), or none.
 */
const timestamp = fc.oneof(
  fc
    .tuple(fc.integer({ min: 1, max: 9999 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 28 }), fc.integer({ min: 0, max: 86_399 }), fc.stringMatching(/^(\.[0-9]{1,9})?$/))
    .chain(([y, mo, d, s, f]) =>
      fc
        .constantFrom('Z', '+00:00', '-05:30', '+14:00', '+15:59')
        .map((zone) => `${String(y).padStart(4, '0')}-${two(mo)}-${two(d)}T${two(Math.floor(s / 3600))}:${two(Math.floor(s / 60) % 60)}:${two(s % 60)}${f}${zone}`),
    ),
  fc.constantFrom(
    '2000-01-01T00:00:00Z',
    '1999-12-31T23:59:59.9999995Z',
    '2026-01-01T00:00:00.0000005Z',
    '2026-01-01T00:00:00.0000015Z',
    '2026-01-01 00:00:00+00',
    '2026-01-01t10:00:00.5z',
    '2026-01-01T23:59:60Z',
    '2026-01-01T24:00:00Z',
    '2026-06-01T12:00:00',
    'infinity',
    '-infinity',
    'epoch',
  ),
  fc.constant(null),
);

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
  readonly recordTime: string | null;
  readonly effectiveAt: string | null;
  readonly createdAt: string | null;
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
  recordTime: timestamp,
  effectiveAt: timestamp,
  createdAt: timestamp,
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
          ...(c.effectiveAt === null ? {} : { effectiveAt: c.effectiveAt }),
          offset,
          synchronizerId: 'sync::1',
          ...(c.recordTime === null ? {} : { recordTime: c.recordTime }),
          extra: c.extra,
          events: [
            {
              CreatedEvent: {
                offset, nodeId: 0, contractId, templateId: 'pkg:Mod.Sub:T', contractKey: c.key, createArgument: c.argument, witnessParties: c.signatories,
                signatories: c.signatories, observers: c.observers, ...(c.createdAt === null ? {} : { createdAt: c.createdAt }), packageName: 'demo', acsDelta: true,
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
          // timestamps: each the value PostgreSQL reads from the participant's text (what the text format stored)
          const u = await database.query<Record<string, unknown>>(
            `SELECT element::text AS element, update_id, workflow_id, record_time IS NOT DISTINCT FROM $2::timestamptz AS record_time,
                    effective_at IS NOT DISTINCT FROM $3::timestamptz AS effective_at FROM updates WHERE stream_name = 'p' AND ledger_offset = $1`,
            [w.offset, w.c.recordTime, w.c.effectiveAt],
          );
          expect(u.rows).toEqual([{ element: w.text, update_id: w.c.updateId, workflow_id: w.c.workflowId, record_time: true, effective_at: true }]);
          // a key or result of null is SQL NULL; an argument of null is JSON null (as the rows always had it)
          const same = (column: string, value: unknown, nullable = true) =>
            `${column} IS NOT DISTINCT FROM ${value === null && nullable ? 'NULL' : `'${JSON.stringify(value).replaceAll("'", "''")}'::jsonb`}`;
          const created = await database.query<Record<string, unknown>>(
            `SELECT ${same('create_argument', w.c.argument, false)} AS argument, ${same('contract_key', w.c.key)} AS key, signatories, observers, witness_parties,
                    created_at IS NOT DISTINCT FROM $2::timestamptz AS created_at FROM created_events WHERE stream_name = 'p' AND ledger_offset = $1`,
            [w.offset, w.c.createdAt],
          );
          expect(created.rows).toEqual([{ argument: true, key: true, signatories: w.c.signatories, observers: w.c.observers, witness_parties: w.c.signatories, created_at: true }]);
          const active = await database.query<Record<string, unknown>>(
            `SELECT ${same('create_argument', w.c.argument, false)} AS argument, ${same('contract_key', w.c.key)} AS key, signatories, observers,
                    created_at IS NOT DISTINCT FROM $2::timestamptz AS created_at FROM active_contracts WHERE stream_name = 'p' AND created_offset = $1`,
            [w.offset, w.c.createdAt],
          );
          expect(active.rows).toEqual([{ argument: true, key: true, signatories: w.c.signatories, observers: w.c.observers, created_at: true }]);
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

  it('refuses what the text format refused, with its error: NUL in a text, \\u0000 in a jsonb, a time PostgreSQL cannot read', async () => {
    const schema = `copy_bad_${unique}`;
    const p = new pg.Pool({ connectionString: pgUrl, max: 2, options: `-c search_path=${schema}` });
    pools.push(p);
    const base: Case = {
      updateId: 'u', workflowId: '', argument: {}, key: null, signatories: ['A::1'], observers: [], choice: 'c', choiceArgument: {}, result: null, extra: null, spacing: '', withBytes: true,
      recordTime: null, effectiveAt: null, createdAt: null,
    };
    // each bad value with the column type it goes to, and what COPY's text format said of it (as the sink sent it before)
    const bad: [Partial<Case>, string, string, RegExp][] = [
      [{ workflowId: 'a\u0000b' }, 'text', 'a\u0000b', /invalid byte sequence for encoding "UTF8": 0x00/],
      [{ signatories: ['A\u0000'] }, 'text[]', '{"A\u0000"}', /invalid byte sequence for encoding "UTF8": 0x00/],
      [{ argument: { s: 'a\u0000' } }, 'jsonb', '{"s":"a\\\\u0000"}', /unsupported Unicode escape sequence/],
      [{ recordTime: 'not a time' }, 'timestamptz', 'not a time', /invalid input syntax for type timestamp with time zone: "not a time"/],
      [{ createdAt: '2026-02-30T00:00:00Z' }, 'timestamptz', '2026-02-30T00:00:00Z', /date\/time field value out of range: "2026-02-30T00:00:00Z"/],
    ];
    await p.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    for (const [i, [change, type, copyText, error]] of bad.entries()) {
      await p.query(`CREATE TABLE ${schema}.text_copy_${i} (v ${type})`);
      const text = await pgSqlDatabase(p)
        .script?.([{ copy: `COPY ${schema}.text_copy_${i} (v) FROM STDIN`, data: [Buffer.from(`${copyText}\n`)] }])
        .then(
          () => 'stored',
          (e: Error) => e.message,
        );
      expect(text).toMatch(error);
      const sink = new PostgresSink({ database: pgSqlDatabase(p), schema, streamName: `bad${i}` });
      await sink.start();
      try {
        sink.add(element({ ...base, ...change }, 1).element);
        await expect(sink.commit({ offset: 1, synchronizerTimes: [] })).rejects.toThrow(text);
      } finally {
        await sink.close().catch(() => undefined);
      }
      const stored = await p.query<{ n: string }>(`SELECT (SELECT count(*) FROM updates WHERE stream_name = $1) + (SELECT count(*) FROM ledger_rx_checkpoints WHERE stream_name = $1) AS n`, [`bad${i}`]);
      expect(stored.rows).toEqual([{ n: '0' }]);
    }
  });

  it('sends COPY data of many chunks, and a value longer than a chunk, as the rows they hold', async () => {
    const schema = `copy_big_${unique}`;
    const p = new pg.Pool({ connectionString: pgUrl, max: 2, options: `-c search_path=${schema}` });
    pools.push(p);
    const sink = new PostgresSink({ database: pgSqlDatabase(p), schema, streamName: 'big' });
    await sink.start();
    try {
      const base: Case = {
        updateId: 'u', workflowId: '', argument: null, key: null, signatories: ['A::1'], observers: [], choice: 'c', choiceArgument: {}, result: null, extra: null, spacing: '', withBytes: true,
        recordTime: '2026-01-01T00:00:00Z', effectiveAt: null, createdAt: '2026-01-01T00:00:00.5Z',
      };
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
