import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { pgSqlDatabase } from '../../src/checkpoints/pg-sql-database.js';
import { openEmbeddedPostgres } from '../../src/sinks/postgres/open-embedded-postgres.js';
import { PostgresSink } from '../../src/sinks/postgres/postgres-sink.js';
import { watchCommittedOffsets, type WatchStatus } from '../../src/sinks/postgres/watch-committed-offsets.js';
import type { JsGetUpdatesResponse } from '../../src/schemas/updates.js';
import { decodeUpdateElement } from '../../src/updates/decode-update-element.js';
import { runInProcess, startInProcess } from '../cli/support/run-in-process.js';
import { eventually } from '../support/eventually.js';

// Changes pushed, not polled: each commit notifies its stream's channel; watchCommittedOffsets and
// `ledger-rx store watch` hear them (docs/query-store.md).

const pgUrl = inject('pgUrl');
const unique = `${process.pid}_${Date.now() % 100000}`;

const tx = (offset: number): JsGetUpdatesResponse =>
  decodeUpdateElement(
    { update: { Transaction: { value: { updateId: `u${offset}`, commandId: 'c', workflowId: '', effectiveAt: '2026-01-01T00:00:00Z', events: [], offset, synchronizerId: 's1', recordTime: '2026-01-01T00:00:00Z' } } } },
    0,
    { validate: false },
  );
const at = (offset: number) => ({ offset, synchronizerTimes: [{ synchronizerId: 's1', recordTime: '2026-01-01T00:00:00Z' }] });

async function commit(sink: PostgresSink, ...offsets: number[]): Promise<void> {
  await sink.write(offsets.map(tx));
  await sink.commit(at(offsets.at(-1) as number));
}

const waitFor = (what: string, check: () => boolean) => eventually(() => (check() ? true : undefined), what, { intervalMs: 10 });

describe('watchCommittedOffsets', () => {
  it('on the embedded store: the checkpoint first, then each commit as it is committed', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ledger-rx-watch-'));
    const embedded = await openEmbeddedPostgres(dir);
    try {
      const sink = new PostgresSink({ database: embedded.database, schema: 'public', streamName: 's' });
      await sink.start();
      await commit(sink, 1, 2);
      const seen: number[] = [];
      const statuses: WatchStatus['type'][] = [];
      const sub = watchCommittedOffsets({ listen: embedded.listen, database: embedded.database }, { streamName: 's', onStatus: (s) => statuses.push(s.type) }).subscribe((o) => seen.push(o));
      await waitFor('the checkpoint', () => seen.length === 1);
      expect(seen).toEqual([2]);
      await commit(sink, 3);
      await commit(sink, 4, 6);
      await waitFor('two commits', () => seen.length === 3);
      expect(seen).toEqual([2, 3, 6]);
      // another stream's commits are not this one's
      const other = new PostgresSink({ database: embedded.database, schema: 'public', streamName: 'other' });
      await other.start();
      await commit(other, 50);
      await commit(sink, 7);
      await waitFor('the next commit', () => seen.length === 4);
      expect(seen).toEqual([2, 3, 6, 7]);
      expect(statuses).toEqual(['listening']);
      sub.unsubscribe();
      await sink.close();
      await other.close();
    } finally {
      await embedded.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it.runIf(pgUrl)('on a server: pushed on a dedicated connection, which is opened again when it is lost; nothing before the commit', async () => {
    const schema = `watch_${unique}`;
    const pool = new pg.Pool({ connectionString: pgUrl, max: 3, options: `-c search_path=${schema}` });
    try {
      const sink = new PostgresSink({ database: pgSqlDatabase(pool), schema, streamName: 's' });
      const seen: number[] = [];
      const statuses: WatchStatus['type'][] = [];
      // subscribed before the store exists: it emits once the stream commits
      const sub = watchCommittedOffsets({ url: pgUrl as string }, { schema, streamName: 's', reconnectDelayMs: 20, onStatus: (s) => statuses.push(s.type) }).subscribe((o) => seen.push(o));
      await waitFor('listening', () => statuses.includes('listening'));
      await sink.start();
      // a notification is sent when its transaction commits: an open transaction that notified is not heard
      const held = await pool.connect();
      await held.query('BEGIN');
      await held.query('SELECT pg_notify($1, $2)', [sink.channel, '999']);
      await commit(sink, 1, 2);
      await waitFor('the first commit', () => seen.length === 1);
      await held.query('ROLLBACK');
      held.release();
      await commit(sink, 3);
      await waitFor('the second commit', () => seen.length === 2);
      expect(seen).toEqual([2, 3]);

      // the watcher's connection is killed; a commit meanwhile is found when it listens again
      const killed = await pool.query(
        `SELECT pg_terminate_backend(pid) AS k FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND query LIKE $1`,
        [`SELECT ledger_offset AS o FROM ${schema}.ledger_rx_checkpoints%`],
      );
      expect(killed.rows.length).toBe(1);
      await commit(sink, 5);
      await waitFor('the commit made while disconnected', () => seen.includes(5));
      await commit(sink, 8);
      await waitFor('the next commit', () => seen.includes(8));
      expect(seen).toEqual([2, 3, 5, 8]);
      expect(statuses).toContain('connection-lost');
      expect(statuses.filter((s) => s === 'listening').length).toBeGreaterThanOrEqual(2);
      sub.unsubscribe();

      // the command: the checkpoint first, then the commits, as NDJSON
      const cli = startInProcess(['store', 'watch', '--pg', pgUrl as string, '--schema', schema, '--stream-name', 's', '--count', '2']);
      const lines = () => cli.stdout().split('\n').filter((l) => l !== '');
      await waitFor('the first line of store watch', () => lines().length >= 1);
      await commit(sink, 9);
      expect(await cli.exited, cli.stderr()).toBe(0);
      expect(lines().map((l) => JSON.parse(l) as unknown)).toEqual([{ stream: 's', offset: 8 }, { stream: 's', offset: 9 }]);
      await sink.close();
    } finally {
      await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await pool.end();
    }
  }, 120_000);

  it('store watch refuses the embedded store with exit 2 and says why', async () => {
    const r = await runInProcess(['store', 'watch', '--data-dir', 'somewhere'], { env: { LEDGER_RX_PG_URL: '' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('store watch needs a PostgreSQL server');
  }, 60_000);
});
