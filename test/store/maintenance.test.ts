import { describe, expect, inject, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { runCli, startCli } from '../cli/support/run-cli.js';
import { runInProcess } from '../cli/support/run-in-process.js';
import { eventually } from '../support/eventually.js';
import { embeddedStore, ingestToEnd, participantActiveAt, serverStore, type StoreUnderTest } from './support/store-fixture.js';

// `ledger-rx store prune` and `store redact` (docs/query-store.md "Maintenance"): beside a running ingester on a
// server (each command runs with lock_timeout 1 s: a lock wait over a second, or a deadlock, fails it), and on the
// embedded store. The ingester beside the commands is a process, and so is one `store` run (its smoke run).

const pgUrl = inject('pgUrl');
const unique = `${process.pid}_${Date.now() % 100000}`;

const sorted = (m: Map<string, string>) => [...m.entries()].sort(([a], [b]) => a.localeCompare(b));
async function storedActiveAt(store: StoreUnderTest, at: number): Promise<Map<string, string>> {
  const rows = await store.query<{ contract_id: string; template_id: string }>('SELECT contract_id, template_id FROM active(NULL, $1::bigint)', [at]);
  return new Map(rows.map((r) => [r.contract_id, r.template_id]));
}
async function latestOf(store: StoreUnderTest): Promise<number> {
  return Number((await store.query<{ l: unknown }>('SELECT latest_offset() AS l'))[0]?.l ?? -1);
}
/** `ledger-rx store ARGS` in process, or as a process (the command's smoke run). */
const storeCli = async (store: StoreUnderTest, args: readonly string[], as: 'in process' | 'a process' = 'in process') => {
  await store.release();
  const r = as === 'a process' ? await runCli(['store', ...args, ...store.flags], { timeoutMs: 60_000 }) : await runInProcess(['store', ...args, ...store.flags]);
  return { ...r, json: r.code === 0 ? (JSON.parse(r.stdout) as Record<string, unknown>) : undefined };
};

describe('store prune and redact', () => {
  it.runIf(pgUrl)('beside a running ingester: no lock wait over a second, the active set unchanged, answers exact from the pruning point on', async () => {
    const sandbox = await startSandbox({ seed: 200, maxListElements: 20_000 });
    const store = serverStore(pgUrl as string, `maint_${unique}`);
    sandbox.startWorkload(40);
    const ingest = startCli(['ingest', '--url', sandbox.url, ...store.flags, '--batch', '10', '--batch-ms', '20', '--log-level', 'warn']);
    try {
      await eventually(async () => ((await latestOf(store).catch(() => -1)) > 220 ? true : undefined), 'the ingester past offset 220', { intervalMs: 50 });
      const pinned = await latestOf(store);
      const before = await storedActiveAt(store, pinned);
      const activeTable = await store.query<{ contract_id: string }>(`SELECT contract_id FROM active_contracts ORDER BY 1`);

      const dry = await storeCli(store, ['prune', '--archived-before', '150'], 'a process');
      expect(dry.code, dry.stderr).toBe(0);
      expect(dry.json).toMatchObject({ stream: 'default', archivedBefore: 150, dryRun: true });
      expect(Number(dry.json?.['pruned_contracts'])).toBeGreaterThan(0);
      expect(Number((await store.query<{ o: unknown }>('SELECT oldest_offset() AS o'))[0]?.o)).toBe(0); // nothing done

      for (const point of [100, 150, 200]) {
        const r = await storeCli(store, ['prune', '--archived-before', String(point), '--apply']);
        expect(r.code, r.stderr).toBe(0);
        expect(r.json).toMatchObject({ archivedBefore: point, dryRun: false });
      }
      expect(Number((await store.query<{ o: unknown }>('SELECT oldest_offset() AS o'))[0]?.o)).toBe(200);
      expect(sorted(await storedActiveAt(store, pinned))).toEqual(sorted(before));
      // the contracts active at the pinned offset are still in active_contracts or were archived after it by the ingester
      // active_contracts first, the archives after it: a contract archived between the two reads is then in the second
      const nowActive = new Set((await store.query<{ contract_id: string }>('SELECT contract_id FROM active_contracts')).map((r) => r.contract_id));
      const latestNow = await latestOf(store);
      const archivedSince = new Set(
        latestNow > pinned ? (await store.query<{ contract_id: string }>('SELECT contract_id FROM archives(NULL, $1::bigint)', [pinned + 1])).map((r) => r.contract_id) : [],
      );
      for (const { contract_id } of activeTable) expect(nowActive.has(contract_id) || archivedSince.has(contract_id)).toBe(true);
      await expect(store.query('SELECT * FROM active(NULL, 199)')).rejects.toThrow(/before the oldest offset the store holds \(200\)/);
      for (const at of [200, 201, Math.floor((200 + pinned) / 2), pinned]) {
        expect(sorted(await storedActiveAt(store, at)), `active(NULL, ${at})`).toEqual(sorted(await participantActiveAt(sandbox, at)));
      }

      // redaction: an archived contract only
      const [archived] = await store.query<{ contract_id: string }>('SELECT contract_id FROM archives(NULL, 200) LIMIT 1');
      const redacted = await storeCli(store, ['redact', '--contract', archived?.contract_id as string, '--redaction-id', 'gdpr-1']);
      expect(redacted.code, redacted.stderr).toBe(0);
      const [row] = await store.query<{ payload: unknown; redaction_id: string }>('SELECT payload, redaction_id FROM lookup_contract($1)', [archived?.contract_id]);
      expect(row).toEqual({ payload: null, redaction_id: 'gdpr-1' });
      const elements = await store.query<{ n: unknown }>(`SELECT count(*) AS n FROM updates WHERE element::text LIKE '%' || $1 || '%' AND element::text LIKE '%"createArgument":{%'
        AND ledger_offset IN (SELECT ledger_offset FROM created_events WHERE contract_id = $1)`, [archived?.contract_id]);
      expect(Number(elements[0]?.n)).toBe(0);
      const again = await storeCli(store, ['redact', '--contract', archived?.contract_id as string, '--redaction-id', 'gdpr-2']);
      expect(again.code).toBe(2);
      expect(again.stderr).toContain('already redacted');
      const [active] = await store.query<{ contract_id: string }>('SELECT contract_id FROM active_contracts LIMIT 1');
      const refused = await storeCli(store, ['redact', '--contract', active?.contract_id as string, '--redaction-id', 'x']);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('it is active');

      ingest.child.kill('SIGTERM');
      expect((await ingest.exited).code, ingest.stderr()).toBe(0);
      sandbox.stopWorkload();
      const latest = await latestOf(store);
      expect(sorted(await storedActiveAt(store, latest))).toEqual(sorted(await participantActiveAt(sandbox, latest)));
    } finally {
      sandbox.stopWorkload();
      if (ingest.child.exitCode === null) ingest.child.kill('SIGKILL');
      await store.dispose();
      await sandbox.close();
    }
  }, 240_000);

  it('on the embedded store: a dry run changes nothing, --apply prunes, answers stay exact from the point on', async () => {
    const sandbox = await startSandbox({ seed: 120, maxListElements: 20_000 });
    const store = await embeddedStore();
    try {
      await ingestToEnd(sandbox, store);
      const latest = await latestOf(store);
      const point = Math.floor(latest / 2);
      const dry = await storeCli(store, ['prune', '--archived-before', String(point)]);
      expect(dry.code, dry.stderr).toBe(0);
      expect(Number(dry.json?.['pruned_contracts'])).toBeGreaterThan(0);
      expect(Number((await store.query<{ o: unknown }>('SELECT oldest_offset() AS o'))[0]?.o)).toBe(0);
      const applied = await storeCli(store, ['prune', '--archived-before', String(point), '--apply']);
      expect(applied.code, applied.stderr).toBe(0);
      expect(applied.json).toEqual(dry.json && { ...dry.json, dryRun: false });
      for (const at of [point, point + 1, latest]) expect(sorted(await storedActiveAt(store, at)), `active(NULL, ${at})`).toEqual(sorted(await participantActiveAt(sandbox, at)));
      const bad = await storeCli(store, ['prune', '--archived-before', String(latest + 1)]);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('after the latest offset the store holds');
    } finally {
      await store.dispose();
      await sandbox.close();
    }
  }, 180_000);

  it('store reset --to OFFSET rewinds the embedded store; ingest then stores the rest again, each update once', async () => {
    const sandbox = await startSandbox({ seed: 80, maxListElements: 20_000 });
    const store = await embeddedStore();
    try {
      await ingestToEnd(sandbox, store);
      const latest = await latestOf(store);
      const offsetsBefore = (await store.query<{ o: unknown }>('SELECT ledger_offset AS o FROM updates ORDER BY 1')).map((r) => Number(r.o));
      const to = Math.floor(latest / 3);
      const reset = await storeCli(store, ['reset', '--to', String(to)]);
      expect(reset.code, reset.stderr).toBe(0);
      expect(reset.json).toMatchObject({ stream: 'default', to, removed_updates: offsetsBefore.filter((o) => o > to).length });
      expect(await latestOf(store)).toBe(to);
      const table = await store.query<{ contract_id: string; template_id: string }>('SELECT contract_id, template_id FROM active_contracts');
      expect(sorted(new Map(table.map((r) => [r.contract_id, r.template_id])))).toEqual(sorted(await participantActiveAt(sandbox, to)));
      expect(Number((await store.query<{ n: unknown }>('SELECT count(*) AS n FROM updates WHERE ledger_offset > $1::bigint', [to]))[0]?.n)).toBe(0);
      const beyond = await storeCli(store, ['reset', '--to', String(latest)]);
      expect(beyond.code).toBe(2);
      expect(beyond.stderr).toContain(`cannot reset to offset ${latest}: the store holds offsets 0 to ${to}`);

      await ingestToEnd(sandbox, store);
      expect((await store.query<{ o: unknown }>('SELECT ledger_offset AS o FROM updates ORDER BY 1')).map((r) => Number(r.o))).toEqual(offsetsBefore);
      const again = await latestOf(store);
      expect(sorted(await storedActiveAt(store, again))).toEqual(sorted(await participantActiveAt(sandbox, again)));
      const tableAfter = await store.query<{ contract_id: string; template_id: string }>('SELECT contract_id, template_id FROM active_contracts');
      expect(sorted(new Map(tableAfter.map((r) => [r.contract_id, r.template_id])))).toEqual(sorted(await participantActiveAt(sandbox, again)));
    } finally {
      await store.dispose();
      await sandbox.close();
    }
  }, 180_000);
});
