import { describe, expect, inject, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { call } from '../support/sandbox-http.js';
import { eventually } from '../support/eventually.js';
import { embeddedStore, ingestToEnd, serverStore, type StoreUnderTest } from './support/store-fixture.js';

// An interface's name in the query functions (docs/query-store.md, "Interface names"): its stored views, equal to
// the participant's active contracts by interface filter at every offset asked; the errors of a name or of views the
// stream did not store; on both stores, against the sandbox read as raw HTTP.

const pgUrl = inject('pgUrl');
const unique = `${process.pid}_${Date.now() % 100000}`;
const HOLDING = '#ledger-rx-demo:Holding:Holding';
const FQN = 'ledger-rx-demo:Holding:Holding';

/** The participant's active contracts by the Holding interface filter at `offset`: contract id → view value. */
async function participantHoldingsAt(sandbox: Sandbox, offset: number): Promise<Map<string, unknown>> {
  const r = await call(sandbox.url, 'POST', '/v2/state/active-contracts', {
    body: {
      activeAtOffset: offset,
      eventFormat: {
        filtersForAnyParty: { cumulative: [{ identifierFilter: { InterfaceFilter: { value: { interfaceId: HOLDING, includeInterfaceView: true, includeCreatedEventBlob: false } } } }] },
        verbose: false,
      },
    },
  });
  expect(r.status, r.text.slice(0, 300)).toBe(200);
  type Created = { contractId: string; interfaceViews: { viewStatus: { code: number }; viewValue: unknown }[] };
  const out = new Map<string, unknown>();
  for (const entry of r.json as { contractEntry: Record<string, { createdEvent?: Created; assignedEvent?: { createdEvent: Created } }> }[]) {
    const created = entry.contractEntry['JsActiveContract']?.createdEvent ?? entry.contractEntry['JsIncompleteAssigned']?.assignedEvent?.createdEvent;
    if (created === undefined) continue;
    expect(created.interfaceViews).toHaveLength(1);
    expect(created.interfaceViews[0]?.viewStatus.code).toBe(0);
    out.set(created.contractId, created.interfaceViews[0]?.viewValue);
  }
  return out;
}

/** `active('Holding', at)` on `stream` as contract id → payload, every row checked to be an interface row. */
async function storedHoldingsAt(store: StoreUnderTest, stream: string, at: number | null, name = 'Holding'): Promise<Map<string, unknown>> {
  const rows = await store.query<{ contract_id: string; payload: unknown; template_fqn: string; payload_type: string; contract_key: unknown }>(
    'SELECT contract_id, payload, template_fqn, payload_type, contract_key FROM active($1, $2::bigint)',
    [name, at],
    stream,
  );
  for (const r of rows) expect({ fqn: r.template_fqn, type: r.payload_type, key: r.contract_key }).toEqual({ fqn: FQN, type: 'interface', key: null });
  return new Map(rows.map((r) => [r.contract_id, r.payload]));
}

const sorted = (m: Map<string, unknown>) => [...m.entries()].sort(([a], [b]) => a.localeCompare(b));

async function latestOf(store: StoreUnderTest, stream: string): Promise<number> {
  const [row] = await store.query<{ l: unknown }>('SELECT latest_offset() AS l', [], stream);
  return Number(row?.l);
}

/** active('Holding', at) equals the participant's answer at `from`, `latest` and offsets between (every one on a server, a few on PGlite). */
async function expectHoldingsEverywhere(sandbox: Sandbox, store: StoreUnderTest, stream: string, from: number, latest: number): Promise<number> {
  const stride = store.kind === 'server' ? 1 : Math.max(1, Math.floor((latest - from) / 6));
  const offsets = new Set<number>([from, latest]);
  for (let at = from; at <= latest; at += stride) offsets.add(at);
  let nonEmpty = 0;
  for (const at of offsets) {
    const expected = await participantHoldingsAt(sandbox, at);
    expect(sorted(await storedHoldingsAt(store, stream, at)), `active('Holding', ${at}) on ${stream}`).toEqual(sorted(expected));
    if (expected.size > 0) nonEmpty++;
  }
  return nonEmpty;
}

const contractColumns =
  'template_fqn, payload_type, contract_id, payload, contract_key, created_at_offset, created_effective_at, archived_at_offset, archived_effective_at, ' +
  'assigned_at_offset, unassigned_at_offset, redaction_id, package_name, package_id, template_id, signatories, observers, witnesses, synchronizer_id, reassignment_counter';

/** Each error case of a function call, asked whole, counted, filtered and limited: the inlined SQL must raise it every way. */
async function expectErrorEveryWay(store: StoreUnderTest, call: string, values: readonly unknown[], error: RegExp, stream = 'default'): Promise<void> {
  for (const sql of [`SELECT * FROM ${call}`, `SELECT count(*) FROM ${call}`, `SELECT contract_id FROM ${call} WHERE contract_id = 'none'`, `SELECT * FROM ${call} LIMIT 1`]) {
    await expect(store.query(sql, values, stream), sql).rejects.toThrow(error);
  }
}

const stores: [string, () => Promise<StoreUnderTest>][] = [
  ['embedded (PGlite)', embeddedStore],
  ...(pgUrl ? ([['PostgreSQL server', async () => serverStore(pgUrl, `qi_${unique}_${Math.floor(Math.random() * 1e6)}`)]] as [string, () => Promise<StoreUnderTest>][]) : []),
];

describe.each(stores)('interface names in the query functions on %s', (_name, makeStore) => {
  it('active(interface, at) equals the participant\'s active contracts by interface filter; creates, archives, lookup_contract; names and their errors', async () => {
    const sandbox = await startSandbox({ seed: 60, maxListElements: 20_000 });
    const store = await makeStore();
    try {
      // three streams of one ledger: with the interface from the start; widened to it later (a backfill); without it
      await ingestToEnd(sandbox, store, ['--interface', HOLDING]);
      await ingestToEnd(sandbox, store, ['--stream-name', 'widened', '--template', '#ledger-rx-demo:Iou:Iou']);
      await ingestToEnd(sandbox, store, ['--stream-name', 'plain']);
      const changedAt = await latestOf(store, 'widened');
      sandbox.startWorkload(40);
      await eventually(async () => (sandbox.ledgerEnd() >= changedAt + 40 ? true : undefined), 'more updates', { intervalMs: 20 });
      sandbox.stopWorkload();
      await ingestToEnd(sandbox, store, ['--interface', HOLDING]);
      await ingestToEnd(sandbox, store, ['--stream-name', 'widened', '--template', '#ledger-rx-demo:Iou:Iou', '--interface', HOLDING]);
      await ingestToEnd(sandbox, store, ['--stream-name', 'narrowed', '--to', String(changedAt)]);
      await ingestToEnd(sandbox, store, ['--stream-name', 'narrowed', '--interface', HOLDING]);
      const latest = await latestOf(store, 'default');
      expect(latest).toBeGreaterThanOrEqual(changedAt + 40);

      // the stream with the interface from its start: every offset, and every spelling of the name
      expect(await expectHoldingsEverywhere(sandbox, store, 'default', 0, latest)).toBeGreaterThan(2);
      const holdings = sorted(await storedHoldingsAt(store, 'default', null));
      expect(holdings.length).toBeGreaterThan(5);
      for (const name of ['Holding:Holding', FQN, HOLDING]) expect(sorted(await storedHoldingsAt(store, 'default', null, name))).toEqual(holdings);

      // every column of the interface rows: what the contract's life gives, the view as payload, no key (PQS's interface rows)
      const fast = await store.query(`SELECT ${contractColumns} FROM active('Holding') ORDER BY contract_id`);
      const lives = await store.query(
        `SELECT DISTINCT ON (l.contract_id) '${FQN}'::text AS template_fqn, 'interface'::text AS payload_type, l.contract_id, v.view_value AS payload, NULL::jsonb AS contract_key,
                ${contractColumns.split(', ').slice(5).map((c) => `l.${c}`).join(', ')}
           FROM ledger_rx_contract_lives(ledger_rx_stream(), NULL) l
           JOIN ledger_rx_interface_views v ON v.stream_name = ledger_rx_stream() AND v.contract_id = l.contract_id AND v.ledger_offset = l.activated_at
          WHERE l.deactivated_at IS NULL ORDER BY l.contract_id, l.activated_at DESC`,
      );
      expect(fast).toEqual(lives);
      expect(fast.length).toBe(holdings.length);
      // the template rows of the same contracts keep their own payloads
      const templates = await store.query<{ contract_id: string; payload_type: string }>('SELECT contract_id, payload_type FROM active() ORDER BY contract_id');
      expect(templates.map((r) => [r.contract_id, r.payload_type])).toEqual(holdings.map(([c]) => [c, 'template']));

      // creates and archives: the filter is the interface alone, so every create and archive of the stream is one of it
      const ids = async (sql: string, values: readonly unknown[] = [], stream = 'default') =>
        (await store.query<{ contract_id: string }>(sql, values, stream)).map((r) => r.contract_id).sort();
      const creates = await ids(`SELECT contract_id FROM creates('Holding')`);
      expect(creates.length).toBeGreaterThan(holdings.length / 2);
      expect(creates).toEqual(await ids('SELECT contract_id FROM creates()'));
      const archives = await ids(`SELECT contract_id FROM archives('Holding')`);
      expect(archives.length).toBeGreaterThan(0);
      expect(archives).toEqual(await ids('SELECT contract_id FROM archives()'));
      expect(await ids(`SELECT contract_id FROM creates('Holding', 1, $1::bigint)`, [changedAt])).toEqual(await ids('SELECT contract_id FROM creates(NULL, 1, $1::bigint)', [changedAt]));
      const archived = archives[0] as string;
      const [view] = await store.query<Record<string, unknown>>(`SELECT * FROM lookup_contract($1, 'Holding')`, [archived]);
      const [template] = await store.query<Record<string, unknown>>(`SELECT * FROM lookup_contract($1)`, [archived]);
      expect(view).toMatchObject({ contract_id: archived, template_fqn: FQN, payload_type: 'interface', contract_key: null });
      expect(template).toMatchObject({ contract_id: archived, payload_type: 'template' });
      expect(view?.['archived_at_offset']).toEqual(template?.['archived_at_offset']);
      expect(view?.['payload']).toEqual({ owner: (template?.['payload'] as Record<string, unknown>)['owner'], amount: (template?.['payload'] as Record<string, unknown>)['amount'] });

      // in parallel workers (a Gather evaluates every InitPlan of its branch before the one-time filters): the same answers
      if (store.kind === 'server') {
        const parallel = { force_parallel_mode: 'on', parallel_setup_cost: '0', parallel_tuple_cost: '0', min_parallel_table_scan_size: '0', min_parallel_index_scan_size: '0' };
        for (const sql of [
          `SELECT ${contractColumns} FROM active('Holding') ORDER BY contract_id`,
          `SELECT ${contractColumns} FROM active('Iou') ORDER BY contract_id`,
          `SELECT count(*) FROM active('Iou', ${changedAt})`,
          `SELECT count(*) FROM active('Holding', ${changedAt})`,
          `SELECT contract_id FROM creates('Holding') ORDER BY contract_id`,
          `SELECT contract_id FROM archives('Iou') ORDER BY contract_id`,
          `SELECT * FROM lookup_contract('${archived}', 'Holding')`,
        ]) {
          expect(await store.query(sql, [], 'default', parallel), sql).toEqual(await store.query(sql));
        }
        await expect(store.query(`SELECT count(*) FROM active('Nope')`, [], 'default', parallel)).rejects.toThrow(/no template or interface 'Nope'/);
        await expect(store.query(`SELECT count(*) FROM active('Holding')`, [], 'plain', parallel)).rejects.toThrow(/are not stored/);
      }

      // widened to the interface at changedAt: the snapshot then stored the views of the contracts active at it
      expect(await expectHoldingsEverywhere(sandbox, store, 'widened', changedAt, latest)).toBeGreaterThan(1);
      await expectErrorEveryWay(store, `active('Holding', $1::bigint)`, [changedAt - 1], new RegExp(`the views of interface ${FQN} are stored from offset ${changedAt} on`), 'widened');
      // after the change the filter holds Asset (through the interface) besides Iou: every create and archive is one of Holding
      const createdAfter = await ids(`SELECT contract_id FROM creates(NULL, $1::bigint)`, [changedAt], 'widened');
      expect(createdAfter.length).toBeGreaterThan(0);
      expect(await ids(`SELECT contract_id FROM creates('Holding')`, [], 'widened')).toEqual(createdAfter);
      await expectErrorEveryWay(store, `creates('Holding', 0)`, [], /not enough for creates\(\) over offsets 0 to/, 'widened');
      await expectErrorEveryWay(store, `archives('Holding', $1::bigint)`, [changedAt], /not enough for archives\(\)/, 'widened');
      expect(await ids(`SELECT contract_id FROM archives('Holding', $1::bigint)`, [changedAt + 1], 'widened')).toEqual(
        await ids(`SELECT contract_id FROM archives(NULL, $1::bigint)`, [changedAt + 1], 'widened'),
      );

      // narrowed from every template to the interface: no snapshot, so only the creates after it have views
      await expectErrorEveryWay(store, `active('Holding')`, [], /only for the creates after offset/, 'narrowed');
      await expectErrorEveryWay(store, `archives('Holding')`, [], /not enough for archives\(\)/, 'narrowed');
      expect(await ids(`SELECT contract_id FROM creates('Holding')`, [], 'narrowed')).toEqual(await ids(`SELECT contract_id FROM creates(NULL, $1::bigint)`, [changedAt + 1], 'narrowed'));

      // never in the filter: an error that says what to do, not an empty answer
      await expectErrorEveryWay(store, `active('Holding')`, [], /the views of interface ledger-rx-demo:Holding:Holding are not stored: the filter of stream 'plain' has never named it/, 'plain');
      await expect(store.query(`SELECT * FROM active('Holding')`, [], 'plain')).rejects.toThrow(/\(ingest with --interface #ledger-rx-demo:Holding:Holding\)/);
      await expectErrorEveryWay(store, `creates('Holding')`, [], /are not stored/, 'plain');
      await expectErrorEveryWay(store, `lookup_contract($1, 'Holding')`, [archived], /are not stored/, 'plain');

      // the other errors, every way: unknown, ambiguous (a template of that name elsewhere), offsets not held, an interface where a template is needed
      await expectErrorEveryWay(store, `active('Nope')`, [], /no template or interface 'Nope' in this store/);
      await expectErrorEveryWay(store, `creates('Nope')`, [], /no template or interface 'Nope'/);
      await expectErrorEveryWay(store, `archives('Nope')`, [], /no template or interface 'Nope'/);
      await expectErrorEveryWay(store, `lookup_contract('x', 'Nope')`, [], /no template or interface 'Nope'/);
      await expectErrorEveryWay(store, `active('Holding', $1::bigint)`, [latest + 1], new RegExp(`offset ${latest + 1} is after the latest offset the store holds`));
      await expectErrorEveryWay(store, `active(NULL, -1)`, [], /offset -1 is before the oldest offset/);
      await expectErrorEveryWay(store, `active('Iou', -1)`, [], /offset -1 is before the oldest offset/);
      await expectErrorEveryWay(store, `creates('Holding', 0, $1::bigint)`, [latest + 1], /is after the latest offset/);
      await expectErrorEveryWay(store, `archives(NULL, -5)`, [], /offset -5 is before the oldest offset/);
      await expect(store.query(`SELECT * FROM exercises('Holding')`)).rejects.toThrow(/'Holding' is an interface \(ledger-rx-demo:Holding:Holding\), not a template/);
      await store.query(`INSERT INTO ledger_rx_templates VALUES ('default', 'ff00:Holding:Holding', 'other-pkg', 'Holding', 'Holding')`);
      await expectErrorEveryWay(store, `active('Holding')`, [], /ambiguous name 'Holding': it matches ledger-rx-demo:Holding:Holding \(interface\), other-pkg:Holding:Holding/);
      await expectErrorEveryWay(store, `creates('Holding:Holding')`, [], /ambiguous name 'Holding:Holding'/);
      expect(sorted(await storedHoldingsAt(store, 'default', null, FQN))).toEqual(holdings);
      await store.query(`DELETE FROM ledger_rx_templates WHERE package_name = 'other-pkg'`);
    } finally {
      await store.dispose();
      await sandbox.close();
    }
  }, 300_000);
});
