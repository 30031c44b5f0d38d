import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runIngest } from '../../src/cli/ingest/run-ingest.js';
import type { Logger } from '../../src/cli/log/logger.js';
import { runStoreScope } from '../../src/cli/store/run-store-scope.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { editScope } from '../../src/sinks/postgres/edit-scope.js';
import { openEmbeddedPostgres } from '../../src/sinks/postgres/open-embedded-postgres.js';
import { captureIo } from '../cli/support/capture-io.js';
import { eventually } from '../support/eventually.js';
import { createIous, participantActive, participantCreates } from './support/participant-view.js';

// Live scope changes on the embedded store (docs/query-store.md, "Scope changes without a re-seed"): the ingesting
// process owns the PGlite directory, so `store scope --data-dir` queues a request file that the running ingest takes.

describe('editScope', () => {
  const s = (parties: string[] | null, templates: string[] = [], interfaces: string[] = []) => ({ parties, templates, interfaces });
  it('applies the edits in order, sorted, and refuses one that would change nothing or mean something else', () => {
    expect(editScope(s(['B']), [{ op: 'add', kind: 'party', id: 'A' }])).toEqual(s(['A', 'B']));
    expect(editScope(s(['A', 'B']), [{ op: 'remove', kind: 'party', id: 'A' }, { op: 'add', kind: 'party', id: 'C' }])).toEqual(s(['B', 'C']));
    expect(editScope(s(null, ['#p:M:T']), [{ op: 'add', kind: 'interface', id: '#p:M:I' }, { op: 'remove', kind: 'template', id: '#p:M:T' }])).toEqual(s(null, [], ['#p:M:I']));
    const refused = (scope: ReturnType<typeof s>, op: 'add' | 'remove', kind: 'party' | 'template' | 'interface', id: string) => () => editScope(scope, [{ op, kind, id }]);
    expect(refused(s(null), 'add', 'party', 'A')).toThrow(/stores every party/);
    expect(refused(s(['A']), 'remove', 'party', 'A')).toThrow(/only party, and no party means every party/);
    expect(refused(s(['A']), 'remove', 'party', 'B')).toThrow(/party B is not in the scope \(the scope: parties A; templates every template/);
    expect(refused(s(['A']), 'add', 'party', 'A')).toThrow(/in the scope already/);
    expect(refused(s(['A']), 'add', 'template', '#p:M:T')).toThrow(/stores every template: adding template #p:M:T would narrow it/);
    expect(refused(s(['A'], ['#p:M:T']), 'remove', 'template', '#p:M:T')).toThrow(/only template/);
  });
});

describe('store scope: bad usage (exit 2, nothing opened)', () => {
  it.each([
    [[], /needs at least one of --add-party/],
    [[{ op: 'add', kind: 'template', id: 'Main:Asset' }], /--template: 'Main:Asset' is not an identifier of the form #<package-name>:<Module>:<Entity>/],
  ] as const)('%j', async (edits, message) => {
    const io = captureIo();
    expect(await runStoreScope({ pg: 'postgres://127.0.0.1:1/none', edits }, io)).toBe(2);
    expect(io.err()).toMatch(message);
  });
  it('--wait on the embedded store', async () => {
    const io = captureIo();
    expect(await runStoreScope({ dataDir: '/nonexistent', edits: [{ op: 'add', kind: 'party', id: 'A' }], wait: true }, io)).toBe(2);
    expect(io.err()).toMatch(/--wait needs a PostgreSQL server/);
  });
});

describe('store scope while ingest runs on the embedded store', () => {
  it('queues a request file that the running ingest takes: backfilled at its checkpoint, then the new party\'s updates, nothing twice', async ({ signal }) => {
    const sandbox = await startSandbox({ seed: 31 });
    const dataDir = mkdtempSync(join(tmpdir(), 'ledger-rx-live-scope-'));
    try {
      const alice = sandbox.partyId('Alice');
      const bob = sandbox.partyId('Bob');
      const create = (party: string, n: number) => createIous(sandbox, party, n);
      await create(bob, 20);
      await create(alice, 3);
      const records: { msg: string | undefined; obj: Readonly<Record<string, unknown>> }[] = [];
      const log = (obj: Readonly<Record<string, unknown>>, msg?: string) => void records.push({ msg, obj });
      const logger: Logger = { debug: log, info: log, warn: log, error: log };
      const io = { ...captureIo(), logger };
      const signals = io.signals as unknown as { emit(s: string): void };
      const committedTo = () => Math.max(-1, ...records.filter((r) => r.msg === 'batch committed').map((r) => Number(r.obj['to'])));
      const caughtUp = () => eventually(() => (committedTo() >= sandbox.ledgerEnd() ? true : undefined), 'the ingester at the ledger end', { signal });
      const ingest = runIngest({ source: { url: sandbox.url }, filter: { parties: [alice] }, dataDir, batch: 5, logLevel: 'debug' }, io);
      await caughtUp();

      // "another process": in this one, store scope finds the directory held as well, and queues the request as a file
      const scopeIo = captureIo();
      expect(await runStoreScope({ dataDir, edits: [{ op: 'add', kind: 'party', id: bob }] }, scopeIo)).toBe(0);
      expect(JSON.parse(scopeIo.out())).toEqual({ stream: 'default', queued: expect.stringMatching(/\.json$/) });
      const changed = await eventually(() => records.find((r) => r.msg === 'scope changed'), 'the live scope change', { signal });
      expect(changed.obj).toMatchObject({ scope: { parties: [alice, bob].sort() }, removed: 0 });
      await create(bob, 2);
      await create(alice, 1);
      await caughtUp();
      signals.emit('SIGTERM');
      expect(await ingest).toBe(0);
      expect(readdirSync(join(dataDir, 'scope-requests'))).toEqual([]);

      const store = await openEmbeddedPostgres(dataDir, { lockWaitMs: 0 });
      try {
        const q = async <R>(sql: string, values: unknown[] = []) => (await store.database.query<R>(sql, values)).rows;
        const end = Number((await q<{ o: number }>(`SELECT ledger_offset AS o FROM ledger_rx_checkpoints`))[0]?.o);
        const [change] = await q<{ o: number; b: number }>(`SELECT ledger_offset AS o, backfilled AS b FROM ledger_rx_scope_changes`);
        const at = Number(change?.o);
        const aliceAt = await participantActive(sandbox, [alice], at);
        expect(Number(change?.b)).toBe((await participantActive(sandbox, [bob], at)).filter((c) => !aliceAt.includes(c)).length);
        expect(Number(change?.b)).toBeGreaterThan(0);
        expect((await q<{ c: string }>(`SELECT contract_id AS c FROM active_contracts ORDER BY 1`)).map((r) => r.c)).toEqual(await participantActive(sandbox, [alice, bob], end));
        const creates = (await q<{ o: number; c: string }>(`SELECT ledger_offset AS o, contract_id AS c FROM created_events WHERE ledger_offset > $1 ORDER BY 1, node_id`, [at])).map((r) => `${r.o} ${r.c}`);
        expect(creates).toEqual(await participantCreates(sandbox, [alice, bob], at, end));
        expect(creates).toHaveLength(3);
        expect(await q(`SELECT scope, wanted FROM ledger_rx_stream_scopes`)).toEqual([{ scope: { parties: [alice, bob].sort(), templates: [], interfaces: [] }, wanted: null }]);
      } finally {
        await store.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
      await sandbox.close();
    }
  }, 120_000);
});
