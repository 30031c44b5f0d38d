import { describe, expect, inject, it } from 'vitest';
import { newCommandId } from '../../src/client/index.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { runInProcess } from '../cli/support/run-in-process.js';
import { embeddedStore, ingestToEnd, serverStore, type StoreUnderTest } from './support/store-fixture.js';

// `ledger-rx ingest --dar FILE`, `ledger-rx sql 'select owner, amount from "RichTypes.RichRecord"'` and `ledger-rx store
// index`, as a user runs them, on both stores (docs/query-store.md, "Typed views", "Expression indexes").

const pgUrl = inject('pgUrl');
const unique = `${process.pid}_${Date.now() % 100000}`;
const DAR = '../shared/dars/richtypes.dar';

const stores: [string, () => Promise<StoreUnderTest>][] = [
  ['embedded (PGlite)', embeddedStore],
  ...(pgUrl ? ([['PostgreSQL server', async () => serverStore(pgUrl, `tvi_${unique}_${Math.floor(Math.random() * 1e6)}`)]] as [string, () => Promise<StoreUnderTest>][]) : []),
];

describe.each(stores)('ingest --dar on %s', (_name, makeStore) => {
  // The sandbox keeps no templates of an uploaded DAR (docs/sandbox.md), so its ledger has no RichRecord contracts:
  // the views' rows are checked in process (typed-views.test.ts); here, what the command makes and how it is used.
  it('creates "RichTypes.RichRecord" and "RichTypes.Marker" with typed columns, queried by `sql`; store index on a column; a second run replaces them; a bad --dar exits 1', async () => {
    const sandbox = await startSandbox({ seed: 7, dars: [DAR] });
    const store = await makeStore();
    try {
      const alice = sandbox.partyId('Alice');
      await sandbox.submit({
        commands: [{ CreateCommand: { templateId: '#ledger-rx-demo:Iou:Iou', createArguments: { issuer: alice, owner: alice, currency: 'CHF', amount: '1.0000000000', observers: [] } } }],
        commandId: newCommandId('tv'),
        actAs: [alice],
      });
      const first = await ingestToEnd(sandbox, store, ['--dar', DAR, '--log-level', 'info']);
      expect(first).toMatch(/typed views ready/);
      expect(first).toMatch(/"name":"RichTypes.RichRecord","kind":"template","action":"created"/);
      const sql = async (query: string) => {
        await store.release();
        const result = await runInProcess(['sql', ...store.flags, '--format', 'ndjson', query]);
        expect(result.code, result.stderr).toBe(0);
        return result.stdout.trim().split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Record<string, unknown>);
      };
      expect(await sql('select owner, amount from "RichTypes.RichRecord"')).toEqual([]);
      expect(
        await sql(`select table_name, string_agg(column_name || ' ' || data_type, ', ' order by ordinal_position) as columns from information_schema.columns
                    where table_schema = current_schema() and table_name like 'RichTypes.%' group by 1 order by 1`),
      ).toEqual([
        { table_name: 'RichTypes.Marker', columns: 'contract_id text, template_id text, package_name text, created_at_offset bigint, created_at timestamp with time zone, signatories ARRAY, observers ARRAY, owner text' },
        {
          table_name: 'RichTypes.RichRecord',
          columns:
            'contract_id text, template_id text, package_name text, created_at_offset bigint, created_at timestamp with time zone, signatories ARRAY, observers ARRAY, ' +
            'owner text, count bigint, amount numeric, label text, active boolean, asOf date, observedAt timestamp with time zone, note text, tags jsonb, attributes jsonb, ' +
            'marker text, profile jsonb, outcome jsonb, fee numeric',
        },
      ]);

      // store index: a typed view's column, deterministic and idempotent; the view's queries can use it
      const index = async (...args: string[]) => {
        await store.release();
        return runInProcess(['store', 'index', ...store.flags, ...args]);
      };
      const made = await index('--template', 'RichRecord', '--expr', 'owner');
      expect(made.code, made.stderr).toBe(0);
      const outcome = JSON.parse(made.stdout) as { index: string; created: boolean; expression: string };
      expect(outcome).toMatchObject({ template: 'richtypes:RichTypes:RichRecord', column: 'owner', expression: "(create_argument ->> 'owner')", created: true, concurrently: store.kind === 'server' });
      expect(outcome.index).toMatch(/^ledger_rx_ix_[0-9a-f]{20}$/);
      const again = await index('--template', 'RichTypes.RichRecord', '--expr', '"owner"');
      expect(again.code, again.stderr).toBe(0);
      expect(JSON.parse(again.stdout)).toMatchObject({ index: outcome.index, created: false });
      const plan = await store.query<{ 'QUERY PLAN': string }>(`EXPLAIN SELECT owner, amount FROM "RichTypes.RichRecord" WHERE owner = 'x'`, [], 'default', { enable_seqscan: 'off' });
      expect(plan.map((r) => r['QUERY PLAN']).join('\n')).toContain(outcome.index);
      // the rest does not depend on the store (the embedded one takes seconds per command): checked on the server
      if (store.kind === 'embedded') return;
      const raw = await index('--template', 'Iou', '--expr', "(create_argument ->> 'currency')");
      expect(raw.code, raw.stderr).toBe(0);
      expect(JSON.parse(raw.stdout)).toMatchObject({ template: 'ledger-rx-demo:Iou:Iou', created: true });
      // NAME is matched, never spliced into SQL; EXPR is one expression over the table, or refused (exit 2)
      const injected = await index('--template', "Iou'; DROP TABLE updates; --", '--expr', 'owner');
      expect(injected.code).toBe(2);
      expect(injected.stderr).toMatch(/no template/);
      expect((await index('--template', 'Iou', '--expr', "1); DROP TABLE updates; --")).code).toBe(2);
      const unknown = await index('--template', 'Iou', '--expr', 'no_such_column');
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toMatch(/no_such_column/);
      expect(await sql('select count(*) as n from updates')).toEqual([{ n: expect.any(Number) as unknown }]);

      const second = await ingestToEnd(sandbox, store, ['--dar', DAR, '--log-level', 'info']);
      expect(second).toMatch(/"name":"RichTypes.RichRecord","kind":"template","action":"replaced"/);

      // a file that is not a DAR stops ingest before it reads anything (exit 1, the path named)
      await store.release();
      const broken = await runInProcess(['ingest', '--url', sandbox.url, ...store.flags, '--to', 'end', '--dar', 'package.json', '--log-level', 'warn']);
      expect(broken.code).toBe(1);
      expect(broken.stderr).toMatch(/package\.json/);
    } finally {
      await store.dispose();
      await sandbox.close();
    }
  }, 240_000);
});
