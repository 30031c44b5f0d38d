import type pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { runCli } from '../cli/support/run-cli.js';
import { startCutProxy } from '../support/cut-proxy.js';
import { eventually } from '../support/eventually.js';
import { spawnCli, type SpawnedCli } from '../support/spawn-cli.js';
import { backfillHoldingRows, createIous, freshDatabase, participantActive, participantCreates } from './support/participant-view.js';

// Live scope changes (docs/query-store.md, "Scope changes without a re-seed"): `store scope` from another process
// changes the scope of a RUNNING `ingest` between two of its batches; killed -9 during that backfill, the next start
// applies the change once.

const pgUrl = inject('pgUrl');
const unique = `${process.pid}_${Date.now() % 100000}`;

describe.runIf(pgUrl)('store scope while ingest runs (PostgreSQL server)', () => {
  it('adds a party live (backfilled once, though killed -9 during the backfill) and removes one live: the store follows the participant', async ({ signal }) => {
    const sandbox = await startSandbox({ seed: 31, maxListElements: 20_000 });
    const database = `live_scope_${unique}`;
    const fresh = await freshDatabase(pgUrl as string, database);
    const store = fresh.pool;
    const url = fresh.url;
    const running: SpawnedCli[] = [];
    const proxyBox: { close?: () => Promise<void> } = {};
    try {
      const alice = sandbox.partyId('Alice');
      const bob = sandbox.partyId('Bob');
      const create = (party: string, n: number) => createIous(sandbox, party, n);
      const q = async <R extends pg.QueryResultRow>(sql: string, values: unknown[] = []) => (await store.query<R>(sql, values)).rows;
      const checkpoint = async () => Number((await q<{ o: string }>(`SELECT ledger_offset AS o FROM ledger_rx_checkpoints WHERE stream_name = 'default'`))[0]?.o ?? -1);
      const storedActive = async () => (await q<{ c: string }>(`SELECT contract_id AS c FROM active_contracts ORDER BY 1`)).map((r) => r.c);
      const storedCreates = async (after: number) =>
        (await q<{ o: string; c: string }>(`SELECT ledger_offset AS o, contract_id AS c FROM created_events WHERE ledger_offset > $1 ORDER BY ledger_offset, node_id`, [after])).map((r) => `${r.o} ${r.c}`);
      const scopeRow = async () => (await q<{ scope: unknown; wanted: unknown }>(`SELECT scope, wanted FROM ledger_rx_stream_scopes`))[0];
      const changes = async () => (await q<{ o: string; b: string; r: string }>(`SELECT ledger_offset AS o, backfilled AS b, removed AS r FROM ledger_rx_scope_changes ORDER BY changed_at`)).map((r) => ({ o: Number(r.o), b: Number(r.b), r: Number(r.r) }));
      /** Waits until the running ingester stored everything up to the ledger end (its last update is one of Alice's). */
      const caughtUp = () => eventually(async () => ((await checkpoint()) >= sandbox.ledgerEnd() ? true : undefined), 'the ingester at the ledger end', { signal });
      const only = (...parties: string[]) => ({ parties: [...parties].sort(), templates: [], interfaces: [] });

      await create(bob, 200);
      await create(alice, 5);
      const flags = ['--pg', url, '--batch', '5', '--log-level', 'info', '--party', alice];

      // 1. a running ingest of Alice's, through a proxy that holds the active-contract snapshot after 40 KB and meanwhile
      // kills the ingester once its backfill transaction stored rows (its session idle in a transaction after an insert)
      const proxy = await startCutProxy(sandbox.url, {
        match: (head) => head.includes('/v2/state/active-contracts'),
        afterBytes: 40_000,
        beforeCut: async () => {
          await backfillHoldingRows(store, database, signal);
          first.child.kill('SIGKILL');
          await first.exited;
        },
      });
      proxyBox.close = () => proxy.close();
      const first = spawnCli(['ingest', '--url', proxy.url, ...flags, '--transport', 'list']);
      running.push(first);
      await caughtUp();
      const at = await checkpoint();
      expect(await storedActive()).toEqual(await participantActive(sandbox, [alice], at));

      // 2. Bob added from another process: the ingester stops its read at the batch boundary and backfills — killed -9 there
      const asked = await runCli(['store', 'scope', '--pg', url, '--add-party', bob], { timeoutMs: 60_000 });
      expect(asked.code, asked.stderr).toBe(0);
      expect(JSON.parse(asked.stdout)).toEqual({ stream: 'default', scope: only(alice), wanted: only(alice, bob) });
      expect(await first.exited, first.stderr()).toMatchObject({ signal: 'SIGKILL' });
      expect(proxy.cuts()).toBe(1);
      expect(first.stderr()).toMatch(/a scope change was asked for/);
      // nothing of the backfill: Alice's contracts, the old scope, the request still pending, the checkpoint where it was
      expect(await storedActive()).toEqual(await participantActive(sandbox, [alice], at));
      expect(await scopeRow()).toEqual({ scope: only(alice), wanted: only(alice, bob) });
      expect(await changes()).toEqual([]);
      expect(await checkpoint()).toBe(at);

      // 3. the ledger moves on; a restart with the same flags applies the pending change at its checkpoint, once
      await create(bob, 1);
      await create(alice, 1);
      const second = spawnCli(['ingest', '--url', sandbox.url, ...flags]);
      running.push(second);
      await caughtUp();
      expect(await scopeRow()).toEqual({ scope: only(alice, bob), wanted: null });
      const aliceAt = await participantActive(sandbox, [alice], at);
      const bobOnly = (await participantActive(sandbox, [bob], at)).filter((c) => !aliceAt.includes(c));
      expect(await changes()).toEqual([{ o: at, b: bobOnly.length, r: 0 }]);
      expect(await storedActive()).toEqual(await participantActive(sandbox, [alice, bob], await checkpoint()));
      expect(await storedCreates(at)).toEqual(await participantCreates(sandbox, [alice, bob], at, await checkpoint()));

      // 4. Bob removed live (waiting until the ingester applied it): no more rows of his
      const removed = await runCli(['store', 'scope', '--pg', url, '--remove-party', bob, '--wait'], { timeoutMs: 60_000 });
      expect(removed.code, removed.stderr).toBe(0);
      expect(JSON.parse(removed.stdout)).toEqual({ stream: 'default', scope: only(alice), wanted: null });
      const removedAt = (await changes())[1]?.o as number;
      expect(removedAt).toBeGreaterThanOrEqual(at);
      await create(bob, 2);
      await create(alice, 1);
      await caughtUp();
      expect(await storedCreates(removedAt)).toEqual(await participantCreates(sandbox, [alice], removedAt, await checkpoint()));
      expect((await storedCreates(removedAt)).length).toBe(1);
      expect(await storedActive()).toEqual(await participantActive(sandbox, [alice], await checkpoint()));

      // 5. Bob added live again: backfilled at the change's offset, then every update after it with his events
      const added = await runCli(['store', 'scope', '--pg', url, '--add-party', bob, '--wait'], { timeoutMs: 60_000 });
      expect(added.code, added.stderr).toBe(0);
      expect(JSON.parse(added.stdout)).toEqual({ stream: 'default', scope: only(alice, bob), wanted: null });
      const addedAt = (await changes())[2]?.o as number;
      await create(bob, 2);
      await create(alice, 1);
      await caughtUp();
      const end = await checkpoint();
      expect(await storedCreates(addedAt)).toEqual(await participantCreates(sandbox, [alice, bob], addedAt, end));
      expect((await storedCreates(addedAt)).length).toBe(3);
      expect(await storedActive()).toEqual(await participantActive(sandbox, [alice, bob], end));
      // nothing stored twice: every create once, and active() (the event tables and the snapshots' contracts) as active_contracts
      const [counts] = await q<{ n: string; d: string }>(`SELECT count(*) AS n, count(DISTINCT contract_id) AS d FROM created_events`);
      expect(counts?.n).toBe(counts?.d);
      expect((await q<{ c: string }>(`SELECT contract_id AS c FROM active(NULL) ORDER BY 1`)).map((r) => r.c)).toEqual(await storedActive());
      expect((await changes()).map((c) => c.r)).toEqual([0, (await changes())[1]?.r, 0]);
      expect((await changes())[1]?.r).toBeGreaterThan(0);

      // 6. a request recorded without a notification (as by hand): SIGHUP makes the ingester look
      await store.query(`UPDATE ledger_rx_stream_scopes SET wanted = $1::jsonb`, [JSON.stringify(only(alice))]);
      second.child.kill('SIGHUP');
      await eventually(async () => ((await scopeRow())?.wanted === null ? true : undefined), 'the change asked for by SIGHUP', { signal });
      expect(await scopeRow()).toEqual({ scope: only(alice), wanted: null });
      expect(second.stderr()).toMatch(/SIGHUP: looking for a scope change/);

      second.child.kill('SIGTERM');
      expect(await second.exited, second.stderr()).toMatchObject({ code: 0 });
    } finally {
      for (const cli of running) if (cli.child.exitCode === null && cli.child.signalCode === null) cli.child.kill('SIGKILL');
      await Promise.all(running.map((cli) => cli.exited));
      await proxyBox.close?.();
      await fresh.drop();
      await sandbox.close();
    }
  }, 300_000);
});
