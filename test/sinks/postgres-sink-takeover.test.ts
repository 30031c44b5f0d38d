import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { pgSqlDatabase } from '../../src/checkpoints/pg-sql-database.js';
import { ErrorCodes } from '../../src/errors/error-codes.js';
import type { JsGetUpdatesResponse } from '../../src/schemas/updates.js';
import { acquireStreamLock } from '../../src/sinks/postgres/acquire-stream-lock.js';
import { PostgresSink, type PostgresSinkStatus } from '../../src/sinks/postgres/postgres-sink.js';
import { decodeUpdateElement } from '../../src/updates/decode-update-element.js';

const pgUrl = inject('pgUrl');
const unique = `${process.pid}_${Date.now() % 100000}`;

const tx = (offset: number): JsGetUpdatesResponse =>
  decodeUpdateElement(
    { update: { Transaction: { value: { updateId: `u${offset}`, commandId: 'c', workflowId: '', effectiveAt: '2026-01-01T00:00:00Z', events: [], offset, synchronizerId: 's1', recordTime: '2026-01-01T00:00:00Z' } } } },
    0,
    { validate: false },
  );
const at = (offset: number) => ({ offset, synchronizerTimes: [{ synchronizerId: 's1', recordTime: '2026-01-01T00:00:00Z' }] });
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => tx(from + i));

describe.runIf(pgUrl)('PostgresSink across writers', () => {
  const pools: pg.Pool[] = [];
  const pool = (schema?: string) => {
    const p = new pg.Pool({ connectionString: pgUrl, max: 3, ...(schema ? { options: `-c search_path=${schema}` } : {}) });
    pools.push(p);
    return p;
  };
  afterAll(async () => {
    await Promise.all(pools.map((p) => p.end()));
  });

  it('refuses a batch that another writer stored part of, instead of writing it twice', async () => {
    const schema = `sink_cas_${unique}`;
    const p = pool(schema);
    const a = new PostgresSink({ database: pgSqlDatabase(p), schema, streamName: 's' });
    const b = new PostgresSink({ database: pgSqlDatabase(p), schema, streamName: 's' });
    await a.start();
    await b.start();
    await a.write(range(1, 10));
    expect(await a.commit(at(10))).toMatchObject({ applied: true });
    await b.write(range(1, 5));
    expect(await b.commit(at(5))).toMatchObject({ applied: false }); // wholly stored already: skipped
    await b.write(range(6, 15));
    await expect(b.commit(at(15))).rejects.toMatchObject({ code: ErrorCodes.SINK_CONFLICT, message: expect.stringMatching(/is at 10, not at 5/) });
    const rows = await p.query<{ o: string }>("SELECT ledger_offset AS o FROM updates WHERE stream_name = 's' ORDER BY 1");
    expect(rows.rows.map((r) => Number(r.o))).toEqual(range(1, 10).map((_, i) => i + 1));
    await a.close();
    await b.close();
  });

  it('a standby waits for the lock and takes over when the leader session ends; the old leader can no longer commit', async () => {
    const schema = `sink_takeover_${unique}`;
    const admin = pool();
    const leaderStatus: PostgresSinkStatus[] = [];
    const standbyStatus: PostgresSinkStatus[] = [];
    const leader = await PostgresSink.connect({ url: pgUrl as string, schema, streamName: 's', onStatus: (s) => leaderStatus.push(s) });
    await leader.start();
    await leader.write(range(1, 3));
    await leader.commit(at(3));
    const standby = await PostgresSink.connect({ url: pgUrl as string, schema, streamName: 's', lockWaitMs: Infinity, onStatus: (s) => standbyStatus.push(s) });
    const taking = standby.start();
    await new Promise((r) => setTimeout(r, 400));
    expect(standbyStatus.map((s) => s.type)).toEqual(['schema-ready', 'waiting-for-lock']);

    // the leader's lock session ends (as when the server ends a silent session): the lock goes with it
    const key = `ledger-rx-ingest:${schema}:s`;
    const holder = await admin.query<{ pid: number }>(
      "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND ((classid::bigint << 32) | objid::bigint) = hashtext($1)::bigint",
      [key],
    );
    expect(holder.rows).toHaveLength(1);
    await admin.query('SELECT pg_terminate_backend($1)', [holder.rows[0]?.pid]);
    expect(await taking).toMatchObject(at(3));
    expect(standbyStatus.map((s) => s.type)).toEqual(['schema-ready', 'waiting-for-lock', 'locked']);
    expect(leaderStatus.map((s) => s.type)).toContain('lock-lost');

    // the old leader, still running, cannot commit: its commits went through the session it lost
    await leader.write(range(4, 6)).catch(() => undefined);
    await expect(leader.commit(at(6))).rejects.toMatchObject({ code: ErrorCodes.SINK_CONFLICT });
    await standby.write(range(4, 8));
    expect(await standby.commit(at(8))).toMatchObject({ applied: true, updates: 5 });
    const rows = await admin.query<{ o: string }>(`SELECT ledger_offset AS o FROM ${schema}.updates ORDER BY 1`);
    expect(rows.rows.map((r) => Number(r.o))).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    await leader.close();
    await standby.close();
  });

  it('sets the lease on the lock session and keeps the lock past it while the heartbeat runs', async () => {
    const schema = `sink_lease_${unique}`;
    const p = pool();
    const lease = await acquireStreamLock(p, schema, 's', { waitMs: 0, leaseMs: 1_000 });
    const show = async (setting: string) => (await lease.database.query<Record<string, string>>(`SHOW ${setting}`)).rows[0]?.[setting];
    // a silent holder (hung, cut off) is ended by the server after the lease; a dead peer by TCP keepalives
    expect(await show('idle_session_timeout')).toBe('1s');
    expect(await show('idle_in_transaction_session_timeout')).toBe('1s');
    await new Promise((r) => setTimeout(r, 1_600));
    await expect(acquireStreamLock(p, schema, 's', { waitMs: 0 })).rejects.toMatchObject({ code: ErrorCodes.SINK_CONFLICT });
    await lease.release();
    const next = await acquireStreamLock(p, schema, 's', { waitMs: 0 });
    await next.release();
  });
});
