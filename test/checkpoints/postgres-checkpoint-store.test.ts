import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { PostgresCheckpointStore } from '../../src/checkpoints/index.js';

const url = inject('pgUrl');
const cp = (offset: number) => ({ offset, synchronizerTimes: [{ synchronizerId: 's::1', recordTime: '2026-01-01T00:00:00Z' }], updatedAt: '2026-01-01T00:00:01.000Z' });

describe.skipIf(!url)('PostgresCheckpointStore (real PostgreSQL)', () => {
  let pool: pg.Pool;
  beforeAll(async () => {
    pool = new pg.Pool({ connectionString: url, max: 4 });
    await pool.query('DROP TABLE IF EXISTS cp_test_events, cp_test');
    await pool.query('CREATE TABLE cp_test_events (ledger_offset bigint PRIMARY KEY)');
  });
  afterAll(() => pool.end());

  it('creates its table, loads undefined, then the saved checkpoint', async () => {
    const store = await PostgresCheckpointStore.open({ pool, streamName: 'a', table: 'cp_test' });
    expect(await store.load()).toBeUndefined();
    await store.save(cp(7));
    expect(await store.load()).toEqual(cp(7));
  });

  it('never moves a stream backwards, and keeps streams apart', async () => {
    const a = await PostgresCheckpointStore.open({ pool, streamName: 'b', table: 'cp_test' });
    const other = await PostgresCheckpointStore.open({ pool, streamName: 'c', table: 'cp_test' });
    await a.save(cp(50));
    await a.save(cp(40));
    await other.save(cp(3));
    expect((await a.load())?.offset).toBe(50);
    expect((await other.load())?.offset).toBe(3);
  });

  it('commits the user writes and the offset together, and skips a batch already committed', async () => {
    const store = await PostgresCheckpointStore.open({ pool, streamName: 'tx', table: 'cp_test' });
    const batch = (offsets: number[]) => (client: pg.PoolClient) =>
      client.query('INSERT INTO cp_test_events (ledger_offset) SELECT unnest($1::bigint[])', [offsets]).then(() => offsets.length);
    expect(await store.transaction(cp(3), batch([1, 2, 3]))).toEqual({ applied: true, result: 3 });
    // A replay of the same batch after a crash is skipped: no duplicate key error, no double rows.
    expect(await store.transaction(cp(3), batch([1, 2, 3]))).toEqual({ applied: false });
    expect(await store.transaction(cp(6), batch([5, 6]))).toEqual({ applied: true, result: 2 });
    const rows = await pool.query('SELECT ledger_offset FROM cp_test_events ORDER BY 1');
    expect(rows.rows.map((r: { ledger_offset: string }) => Number(r.ledger_offset))).toEqual([1, 2, 3, 5, 6]);
    expect((await store.load())?.offset).toBe(6);
  });

  it('rolls back both the writes and the offset when the batch fails', async () => {
    const store = await PostgresCheckpointStore.open({ pool, streamName: 'rollback', table: 'cp_test' });
    await expect(
      store.transaction(cp(9), async (client) => {
        await client.query('INSERT INTO cp_test_events (ledger_offset) VALUES (900)');
        throw new Error('batch failed');
      }),
    ).rejects.toThrow('batch failed');
    expect(await store.load()).toBeUndefined();
    const rows = await pool.query('SELECT count(*)::int AS n FROM cp_test_events WHERE ledger_offset = 900');
    expect(rows.rows[0]).toEqual({ n: 0 });
  });

  it('owns and closes a pool made from a connection string', async () => {
    const store = await PostgresCheckpointStore.open({ pool: url as string, streamName: 'own', table: 'cp_test' });
    await store.save(cp(1));
    await store.close();
    const again = await PostgresCheckpointStore.open({ pool, streamName: 'own', table: 'cp_test' });
    expect((await again.load())?.offset).toBe(1);
  });

  it('rejects an unsafe table name', async () => {
    await expect(PostgresCheckpointStore.open({ pool, streamName: 'x', table: 'bad; drop table x' })).rejects.toMatchObject({ field: 'table' });
  });
});
