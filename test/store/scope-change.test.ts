import { describe, expect, inject, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { streamScopeChange, type StreamScope } from '../../src/sinks/postgres/stream-scope.js';
import { runCli } from '../cli/support/run-cli.js';
import { startCutProxy } from '../support/cut-proxy.js';
import { spawnCli } from '../support/spawn-cli.js';
import { backfillHoldingRows, createIous, freshDatabase, participantActive } from './support/participant-view.js';

// Scope changes (docs/query-store.md, "Scope changes"): a stream restarted with a wider filter backfills what it
// adds from the active contracts at its checkpoint, exactly once, also when killed (-9) during the backfill.

const pgUrl = inject('pgUrl');
const unique = `${process.pid}_${Date.now() % 100000}`;

describe('streamScopeChange', () => {
  const s = (parties: string[] | null, templates: string[] = [], interfaces: string[] = []): StreamScope => ({ parties, templates, interfaces });
  it('tells a widening (backfill) from a narrowing (removal)', () => {
    expect(streamScopeChange(s(['A']), s(['A']))).toEqual({ widened: false, narrowed: false });
    expect(streamScopeChange(s(['A']), s(['A', 'B']))).toEqual({ widened: true, narrowed: false });
    expect(streamScopeChange(s(['A']), s(null))).toEqual({ widened: true, narrowed: false });
    expect(streamScopeChange(s(null), s(['A']))).toEqual({ widened: false, narrowed: true });
    expect(streamScopeChange(s(['A', 'B']), s(['B', 'C']))).toEqual({ widened: true, narrowed: true });
    expect(streamScopeChange(s(null, ['#p:M:T']), s(null, ['#p:M:T', '#p:M:U']))).toEqual({ widened: true, narrowed: false });
    expect(streamScopeChange(s(null, ['#p:M:T']), s(null))).toEqual({ widened: true, narrowed: false });
    expect(streamScopeChange(s(null), s(null, [], ['#p:M:I']))).toEqual({ widened: false, narrowed: true });
  });
});

describe.runIf(pgUrl)('a widened filter on restart (PostgreSQL server)', () => {
  it('backfills the added party from the active contracts at the checkpoint, exactly once, though killed -9 during the backfill; a narrowing removes it', async ({ signal }) => {
    const sandbox = await startSandbox({ seed: 31, maxListElements: 20_000 });
    const database = `scope_${unique}`;
    const fresh = await freshDatabase(pgUrl as string, database);
    const store = fresh.pool;
    const url = fresh.url;
    const proxyBox: { close?: () => Promise<void> } = {};
    try {
      const alice = sandbox.partyId('Alice');
      const bob = sandbox.partyId('Bob');
      const create = (party: string, n: number) => createIous(sandbox, party, n);
      await create(bob, 200);
      await create(alice, 5); // after Bob's: Alice's stream's checkpoint lies beyond every create of Bob's
      const flags = ['--pg', url, '--batch', '5', '--log-level', 'info'];
      const first = await runCli(['ingest', '--url', sandbox.url, ...flags, '--party', alice, '--to', 'end'], { timeoutMs: 120_000 });
      expect(first.code, first.stderr).toBe(0);
      const checkpoint = async () => Number((await store.query<{ o: string }>(`SELECT ledger_offset AS o FROM ledger_rx_checkpoints WHERE stream_name = 'default'`)).rows[0]?.o);
      const storedActive = async () => (await store.query<{ c: string }>(`SELECT contract_id AS c FROM active_contracts ORDER BY 1`)).rows.map((r) => r.c);
      const at = await checkpoint();
      expect(await storedActive()).toEqual(await participantActive(sandbox, [alice], at));
      expect((await participantActive(sandbox, [bob], at)).length).toBeGreaterThanOrEqual(200);

      // restarted with Bob added, through a proxy that holds the snapshot after 40 KB and, meanwhile, kills the
      // ingester once its backfill transaction has stored rows (its session idle in a transaction after an insert)
      let killed: Promise<unknown> = Promise.resolve();
      const proxy = await startCutProxy(sandbox.url, {
        match: (head) => head.includes('/v2/state/active-contracts'),
        afterBytes: 40_000,
        beforeCut: async () => {
          await backfillHoldingRows(store, database, signal);
          cli.child.kill('SIGKILL');
          killed = cli.exited;
          await killed;
        },
      });
      proxyBox.close = () => proxy.close();
      const cli = spawnCli(['ingest', '--url', proxy.url, ...flags, '--party', alice, '--party', bob, '--to', 'end', '--transport', 'list']);
      const exit = await cli.exited;
      expect(exit, cli.stderr()).toMatchObject({ signal: 'SIGKILL' });
      await killed;
      expect(proxy.cuts()).toBe(1);
      expect(cli.stderr()).toMatch(/backfilling/);
      // nothing of the backfill: Alice's contracts only, the old scope, no change recorded, the checkpoint where it was
      expect(await storedActive()).toEqual(await participantActive(sandbox, [alice], at));
      expect((await store.query(`SELECT scope FROM ledger_rx_stream_scopes`)).rows).toEqual([{ scope: { parties: [alice], templates: [], interfaces: [] } }]);
      expect((await store.query(`SELECT * FROM ledger_rx_scope_changes`)).rows).toEqual([]);
      expect(await checkpoint()).toBe(at);

      // the ledger moves on; the restart backfills once, then follows both parties
      await create(bob, 1);
      await create(alice, 1);
      const again = await runCli(['ingest', '--url', sandbox.url, ...flags, '--party', alice, '--party', bob, '--to', 'end'], { timeoutMs: 120_000 });
      expect(again.code, again.stderr).toBe(0);
      const end = await checkpoint();
      expect(end).toBeGreaterThan(at);
      expect(await storedActive()).toEqual(await participantActive(sandbox, [alice, bob], end));
      const changes = (await store.query<{ o: string; b: string; r: string }>(`SELECT ledger_offset AS o, backfilled AS b, removed AS r FROM ledger_rx_scope_changes`)).rows;
      // backfilled: Bob's contracts at the checkpoint that Alice's stream did not hold already (the seed shares some)
      const aliceAt = await participantActive(sandbox, [alice], at);
      const added = (await participantActive(sandbox, [bob], at)).filter((c) => !aliceAt.includes(c));
      expect(changes).toEqual([{ o: String(at), b: String(added.length), r: '0' }]);
      expect((await store.query<{ c: string }>(`SELECT contract_id AS c FROM active(NULL) ORDER BY 1`)).rows.map((r) => r.c)).toEqual(await storedActive());

      // narrowed back to Alice: Bob's contracts leave active_contracts, in the same way
      const narrowed = await runCli(['ingest', '--url', sandbox.url, ...flags, '--party', alice, '--to', 'end'], { timeoutMs: 120_000 });
      expect(narrowed.code, narrowed.stderr).toBe(0);
      expect(await storedActive()).toEqual(await participantActive(sandbox, [alice], await checkpoint()));

      // store scope while no ingest runs: recorded as wanted; the next start with the same flags applies it
      const only = (...parties: string[]) => ({ parties: [...parties].sort(), templates: [], interfaces: [] });
      const scopeRow = async () => (await store.query(`SELECT scope, wanted, flags FROM ledger_rx_stream_scopes`)).rows;
      const asked = await runCli(['store', 'scope', '--pg', url, '--add-party', bob]);
      expect(asked.code, asked.stderr).toBe(0);
      expect(JSON.parse(asked.stdout)).toEqual({ stream: 'default', scope: only(alice), wanted: only(alice, bob) });
      const refused = await runCli(['store', 'scope', '--pg', url, '--add-party', bob]);
      expect({ code: refused.code, stderr: refused.stderr }).toMatchObject({ code: 2, stderr: expect.stringMatching(/party Bob::\S+ is in the scope already/) });
      const applied = await runCli(['ingest', '--url', sandbox.url, ...flags, '--party', alice, '--to', 'end'], { timeoutMs: 120_000 });
      expect(applied.code, applied.stderr).toBe(0);
      expect(await scopeRow()).toEqual([{ scope: only(alice, bob), wanted: null, flags: only(alice) }]);
      expect(await storedActive()).toEqual(await participantActive(sandbox, [alice, bob], await checkpoint()));
      // the same flags again: the scope changed with store scope stays
      await create(bob, 1);
      const kept = await runCli(['ingest', '--url', sandbox.url, ...flags, '--party', alice, '--to', 'end'], { timeoutMs: 120_000 });
      expect(kept.code, kept.stderr).toBe(0);
      expect(kept.stderr).toMatch(/reading with the scope the store holds/);
      expect(await scopeRow()).toEqual([{ scope: only(alice, bob), wanted: null, flags: only(alice) }]);
      expect(await storedActive()).toEqual(await participantActive(sandbox, [alice, bob], await checkpoint()));
      // other flags set the scope, and drop a request still pending
      const charlie = sandbox.partyId('Charlie');
      expect((await runCli(['store', 'scope', '--pg', url, '--add-party', charlie])).code).toBe(0);
      const reset = await runCli(['ingest', '--url', sandbox.url, ...flags, '--party', bob, '--to', 'end'], { timeoutMs: 120_000 });
      expect(reset.code, reset.stderr).toBe(0);
      expect(reset.stderr).toMatch(/the scope change asked for with store scope is dropped/);
      expect(await scopeRow()).toEqual([{ scope: only(bob), wanted: null, flags: only(bob) }]);
      expect(await storedActive()).toEqual(await participantActive(sandbox, [bob], await checkpoint()));
    } finally {
      await proxyBox.close?.();
      await fresh.drop();
      await sandbox.close();
    }
  }, 300_000);
});
