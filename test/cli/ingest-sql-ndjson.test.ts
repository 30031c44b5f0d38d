import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { jsonRow } from '../../src/cli/sql/json-row.js';
import { openEmbeddedPostgres } from '../../src/sinks/postgres/open-embedded-postgres.js';
import { runInProcess } from './support/run-in-process.js';

// `sql --format ndjson` prints the same JSON types from the embedded store and from a server (docs/query-store.md).

const pgUrl = inject('pgUrl');

const query = `select 1::bigint as a, 9007199254740993::bigint as b, array[1, -2]::bigint[] as c, 1.50::numeric as d, 3::int as e,
  '2026-01-01T00:00:00Z'::timestamptz as f, '{"x": 1}'::jsonb as g, true as h, null::bigint as i, array[0.1]::numeric[] as j, 'Alice::1' as k`;
const expected = {
  a: 1,
  b: '9007199254740993',
  c: [1, -2],
  d: '1.50',
  e: 3,
  f: '2026-01-01T00:00:00.000Z',
  g: { x: 1 },
  h: true,
  i: null,
  j: ['0.1'],
  k: 'Alice::1',
};

describe('sql --format ndjson', () => {
  it('jsonRow: bigint as a number while safe, else its text; numeric as text; whatever the driver gave', () => {
    const fields = [{ name: 'a', dataTypeID: 20 }, { name: 'b', dataTypeID: 20 }, { name: 'c', dataTypeID: 1016 }, { name: 'd', dataTypeID: 1700 }, { name: 'x' }];
    const fromPg = { a: '1', b: '9007199254740993', c: ['1', '-2'], d: '1.50', x: 'y' };
    const fromPglite = { a: 1, b: 9007199254740993n, c: [1, -2], d: '1.50', x: 'y' };
    const want = { a: 1, b: '9007199254740993', c: [1, -2], d: '1.50', x: 'y' };
    expect(jsonRow(fields, fromPg)).toEqual(want);
    expect(jsonRow(fields, fromPglite)).toEqual(want);
  });

  it('gives the same JSON from the embedded store and from a server', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ledger-rx-ndjson-'));
    try {
      await (await openEmbeddedPostgres(dir)).close();
      const embedded = await runInProcess(['sql', '--data-dir', dir, '--format', 'ndjson', query]);
      expect(embedded.code, embedded.stderr).toBe(0);
      expect(JSON.parse(embedded.stdout)).toEqual(expected);
      if (pgUrl) {
        const server = await runInProcess(['sql', '--pg', pgUrl, '--format', 'ndjson', query]);
        expect(server.code, server.stderr).toBe(0);
        expect(server.stdout).toBe(embedded.stdout);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
