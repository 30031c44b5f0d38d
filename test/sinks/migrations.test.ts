import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { pgSqlDatabase } from '../../src/checkpoints/pg-sql-database.js';
import { IngestBatch } from '../../src/sinks/postgres/ingest-batch.js';
import { migrations } from '../../src/sinks/postgres/migrations.js';
import { runMigrations } from '../../src/sinks/postgres/run-migrations.js';
import type { UpdateRow } from '../../src/sinks/postgres/ingest-rows.js';
import { BatchScript } from '../../src/sinks/postgres/write/batch-script.js';
import { copyRows } from '../../src/sinks/postgres/write/copy-rows.js';
import { CopyBinary } from '../../src/sinks/postgres/write/copy-binary.js';
import { decodeUpdateElement } from '../../src/updates/decode-update-element.js';

const pgUrl = inject('pgUrl');
const unique = `${process.pid}_${Date.now() % 100000}`;

/** Copies `rows` into `updates` of stream `s`, as a batch does. */
const copyUpdates = (p: pg.Pool, rows: readonly UpdateRow[]) => {
  const text = new CopyBinary('s', copyRows.updates.columns);
  for (const r of rows) copyRows.updates.write(text, r);
  return pgSqlDatabase(p).script?.([{ copy: copyRows.updates.statement, data: text.chunks() }]);
};

describe.runIf(pgUrl)('ingestion schema (PostgreSQL)', () => {
  const pools: pg.Pool[] = [];
  const pool = (schema?: string) => {
    const p = new pg.Pool({ connectionString: pgUrl, max: 3, ...(schema ? { options: `-c search_path=${schema}` } : {}) });
    pools.push(p);
    return p;
  };
  const db = (p: pg.Pool) => pgSqlDatabase(p);
  let admin: pg.Pool;
  beforeAll(() => {
    admin = pool();
  });
  afterAll(async () => {
    await Promise.all(pools.map((p) => p.end()));
  });

  it('is idempotent: a second run applies nothing', async () => {
    const schema = `mig_idem_${unique}`;
    const first = await runMigrations(db(admin), schema);
    expect(first.applied).toEqual(migrations.map((m) => m.version));
    const second = await runMigrations(db(admin), schema);
    expect(second).toEqual({ applied: [], version: first.version });
    const tables = await admin.query<{ table_name: string }>(
      'SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name',
      [schema],
    );
    expect(tables.rows.map((r) => r.table_name)).toEqual([
      'active_contracts', 'archived_events', 'created_events', 'exercised_events', 'ledger_rx_checkpoints', 'ledger_rx_choices', 'ledger_rx_interface_views',
      'ledger_rx_migrations', 'ledger_rx_redactions', 'ledger_rx_scope_changes', 'ledger_rx_snapshot_contracts', 'ledger_rx_snapshots', 'ledger_rx_store_pruning',
      'ledger_rx_stream_scopes', 'ledger_rx_templates', 'ledger_rx_typed_views', 'ledger_rx_view_interfaces', 'reassignment_events', 'updates',
    ]);
  });

  it('version 2 upgrades a version-1 schema in place: existing active contracts get origin update, only update or snapshot is accepted', async () => {
    const schema = `mig_v2_${unique}`;
    expect(await runMigrations(db(admin), schema, migrations.filter((m) => m.version === 1))).toEqual({ applied: [1], version: 1 });
    const insert = (id: string, origin?: string) =>
      admin.query(
        `INSERT INTO ${schema}.active_contracts (stream_name, contract_id, template_id, package_name, create_argument, signatories, observers, created_offset, synchronizer_id, reassignment_counter${origin ? ', origin' : ''})
         VALUES ('s', $1, 't', 'p', '{}', '{}', '{}', 1, 'sync', 0${origin ? ', $2' : ''})`,
        origin ? [id, origin] : [id],
      );
    await insert('before-v2');
    expect(await runMigrations(db(admin), schema, migrations.filter((m) => m.version <= 2))).toEqual({ applied: [2], version: 2 });
    await insert('after-v2');
    await insert('from-snapshot', 'snapshot');
    await expect(insert('bad', 'elsewhere')).rejects.toThrow(/check constraint/);
    const rows = await admin.query(`SELECT contract_id AS id, origin FROM ${schema}.active_contracts ORDER BY contract_id`);
    expect(rows.rows).toEqual([
      { id: 'after-v2', origin: 'update' },
      { id: 'before-v2', origin: 'update' },
      { id: 'from-snapshot', origin: 'snapshot' },
    ]);
  });

  it('version 3 turns updates.element into json in place: old rows stay readable with the same operators, new ones are stored as sent', async () => {
    const schema = `mig_v3_${unique}`;
    expect(await runMigrations(db(admin), schema, migrations.filter((m) => m.version <= 2))).toEqual({ applied: [1, 2], version: 2 });
    await admin.query(
      `INSERT INTO ${schema}.updates (stream_name, ledger_offset, update_id, kind, element) VALUES ('s', 1, 'u1', 'transaction', '{"update": {"Transaction": {"value": {"updateId": "u1", "offset": 1}}}}')`,
    );
    expect(await runMigrations(db(admin), schema, migrations.filter((m) => m.version <= 3))).toEqual({ applied: [3], version: 3 });
    const type = await admin.query(`SELECT data_type FROM information_schema.columns WHERE table_schema = $1 AND table_name = 'updates' AND column_name = 'element'`, [schema]);
    expect(type.rows).toEqual([{ data_type: 'json' }]);
    const sent = '{"update":{"Transaction":{"value":{"offset":2,   "updateId":"u2"}}}}';
    await copyUpdates(pool(schema), [{ offset: 2, updateId: 'u2', kind: 'transaction', recordTime: null, synchronizerId: null, commandId: null, workflowId: null, effectiveAt: null, elementJson: sent }]);
    const rows = await admin.query(
      `SELECT ledger_offset::int AS o, element #>> '{update,Transaction,value,updateId}' AS id, element::jsonb @> '{"update": {"Transaction": {}}}' AS tx, element::text AS text
       FROM ${schema}.updates ORDER BY 1`,
    );
    expect(rows.rows).toEqual([
      { o: 1, id: 'u1', tx: true, text: '{"update": {"Transaction": {"value": {"offset": 1, "updateId": "u1"}}}}' }, // jsonb's normalized text
      { o: 2, id: 'u2', tx: true, text: sent }, // as sent
    ]);
    await expect(copyUpdates(pool(schema), [{ offset: 3, updateId: 'u3', kind: 'unknown', recordTime: null, synchronizerId: null, commandId: null, workflowId: null, effectiveAt: null, elementJson: '{"no json' }])).rejects.toThrow(/json/);
  });

  it('version 4 compresses the large json columns with lz4 where the server has it, and leaves the rest alone', async () => {
    const schema = `mig_v4_${unique}`;
    await runMigrations(db(admin), schema, migrations.filter((m) => m.version <= 3));
    const compression = async () =>
      (
        await admin.query<{ col: string; c: string }>(
          `SELECT c.relname || '.' || a.attname AS col, a.attcompression AS c FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
           WHERE n.nspname = $1 AND a.attcompression <> '' ORDER BY 1`,
          [schema],
        )
      ).rows;
    expect(await compression()).toEqual([]);
    expect(await runMigrations(db(admin), schema, migrations.filter((m) => m.version <= 4))).toEqual({ applied: [4], version: 4 });
    const lz4 = (await admin.query<{ on: boolean }>(`SELECT 'lz4' = ANY (enumvals) AS on FROM pg_settings WHERE name = 'default_toast_compression'`)).rows[0]?.on;
    const columns = ['active_contracts.create_argument', 'created_events.create_argument', 'exercised_events.choice_argument', 'exercised_events.exercise_result', 'updates.element'];
    expect(await compression()).toEqual(lz4 ? columns.map((col) => ({ col, c: 'l' })) : []);
    // a large element is stored and read back whole
    const big = JSON.stringify({ update: { Transaction: { value: { updateId: 'u1', pad: 'x'.repeat(20_000) } } } });
    await copyUpdates(pool(schema), [{ offset: 1, updateId: 'u1', kind: 'transaction', recordTime: null, synchronizerId: null, commandId: null, workflowId: null, effectiveAt: null, elementJson: big }]);
    expect((await admin.query(`SELECT element::text AS t FROM ${schema}.updates`)).rows).toEqual([{ t: big }]);
  });

  it('version 12 moves a checkpoint only from where the batch starts, notifies, and drops the template triggers of the event tables', async () => {
    const schema = `mig_v12_${unique}`;
    await runMigrations(db(admin), schema, migrations.filter((m) => m.version < 12));
    expect(await runMigrations(db(admin), schema, migrations.filter((m) => m.version <= 12))).toMatchObject({ applied: [12] });
    const triggers = await admin.query<{ t: string }>(
      `SELECT c.relname || '.' || g.tgname AS t FROM pg_trigger g JOIN pg_class c ON c.oid = g.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = $1 AND NOT g.tgisinternal ORDER BY 1`,
      [schema],
    );
    expect(triggers.rows.map((r) => r.t)).toEqual(['ledger_rx_interface_views.interface_views_interfaces', 'ledger_rx_redactions.redactions_views', 'ledger_rx_snapshot_contracts.snapshot_contracts_templates', 'updates.updates_forget_views']);
    const c = await pool(schema).connect();
    try {
      await c.query('LISTEN ch');
      const heard: string[] = [];
      c.on('notification', (n) => heard.push(String(n.payload)));
      const move = (after: number, to: number) =>
        c.query(`SELECT ledger_rx_move_checkpoint('s', $1, $2, '[]'::jsonb, '2026-01-01T00:00:00Z', 'ch')`, [after, to]).then(
          () => 'moved',
          (e: { code: string; detail: string }) => `${e.code} ${e.detail}`,
        );
      expect(await move(-1, 5)).toBe('moved');
      expect(await move(5, 5)).toBe('LRX01 5'); // already stored
      expect(await move(3, 9)).toBe('LRX02 5'); // another writer moved it
      expect(await move(5, 9)).toBe('moved');
      await c.query('SELECT 1'); // the notifications of the two commits have arrived
      expect(heard).toEqual(['5', '9']);
      expect((await c.query(`SELECT ledger_offset FROM ledger_rx_checkpoints`)).rows).toEqual([{ ledger_offset: '9' }]);
    } finally {
      c.release();
    }
  });

  it('version 13 drops the index on updates.update_id of a version-12 store, keeping its rows and the key', async () => {
    const schema = `mig_v13_${unique}`;
    await runMigrations(db(admin), schema, migrations.filter((m) => m.version <= 12));
    const indexes = async () =>
      (await admin.query<{ i: string }>(`SELECT indexname AS i FROM pg_indexes WHERE schemaname = $1 AND tablename = 'updates' ORDER BY 1`, [schema])).rows.map((r) => r.i);
    expect(await indexes()).toEqual(['updates_pkey', 'updates_update_id']);
    await copyUpdates(pool(schema), [{ offset: 1, updateId: 'u1', kind: 'transaction', recordTime: null, synchronizerId: null, commandId: null, workflowId: null, effectiveAt: null, elementJson: '{"update":{}}' }]);
    expect(await runMigrations(db(admin), schema)).toEqual({ applied: [13], version: 13 });
    expect(await indexes()).toEqual(['updates_pkey']);
    expect((await admin.query(`SELECT ledger_offset::int AS o FROM ${schema}.updates WHERE update_id = 'u1'`)).rows).toEqual([{ o: 1 }]);
  });

  it('version 10 upgrades a version-9 store: the stored views\' interfaces are catalogued, and their name answers active()', async () => {
    const schema = `mig_v10_${unique}`;
    await runMigrations(db(admin), schema, migrations.filter((m) => m.version <= 9));
    const q = (text: string) => admin.query(`SET search_path TO ${schema}; ${text}`);
    await q(`INSERT INTO ledger_rx_checkpoints (stream_name, ledger_offset, updated_at) VALUES ('s', 5, now());
             INSERT INTO active_contracts (stream_name, contract_id, template_id, package_name, create_argument, signatories, observers, created_offset, created_at, synchronizer_id, reassignment_counter)
               VALUES ('s', 'c1', 'p1:Main:Token', 'app', '{"owner": "A"}', '{A}', '{}', 3, now(), 'sync', 0);
             INSERT INTO ledger_rx_interface_views (stream_name, ledger_offset, contract_id, interface_id, view_value) VALUES ('s', 3, 'c1', 'i1:Api:Holding', '{"owner": "A"}');`);
    expect(await runMigrations(db(admin), schema, migrations.filter((m) => m.version <= 10))).toEqual({ applied: [10], version: 10 });
    expect((await admin.query(`SELECT stream_name, interface_id, module_name, entity_name FROM ${schema}.ledger_rx_view_interfaces`)).rows).toEqual([
      { stream_name: 's', interface_id: 'i1:Api:Holding', module_name: 'Api', entity_name: 'Holding' },
    ]);
    // no scope recorded (a stream of a library sink): the stored views count from the stream's start, named by package id
    const rows = (await q(`SELECT template_fqn, payload_type, contract_id, payload FROM active('Holding')`)) as unknown as { rows: unknown[] }[];
    expect(rows[1]?.rows).toEqual([{ template_fqn: 'i1:Api:Holding', payload_type: 'interface', contract_id: 'c1', payload: { owner: 'A' } }]);
  });

  it('is safe when several processes start at once', async () => {
    const schema = `mig_conc_${unique}`;
    const results = await Promise.all([pool(), pool(), pool(), pool()].map((p) => runMigrations(db(p), schema)));
    expect(results.filter((r) => r.applied.length > 0)).toHaveLength(1);
    const rows = await admin.query(`SELECT version FROM ${schema}.ledger_rx_migrations`);
    expect(rows.rows).toEqual(migrations.map((m) => ({ version: m.version })));
  });

  it('applies only the missing versions, in order, and rolls back a failing one', async () => {
    const schema = `mig_steps_${unique}`;
    await runMigrations(db(admin), schema, [{ version: 1, name: 'one', statements: ['CREATE TABLE a (x int)'] }]);
    const extra = [
      { version: 1, name: 'one', statements: ['CREATE TABLE a (x int)'] },
      { version: 3, name: 'three', statements: ['CREATE TABLE c (x int)'] },
      { version: 2, name: 'two', statements: ['CREATE TABLE b (x int)'] },
    ];
    expect(await runMigrations(db(admin), schema, extra)).toEqual({ applied: [2, 3], version: 3 });
    await expect(runMigrations(db(admin), schema, [...extra, { version: 4, name: 'bad', statements: ['CREATE TABLE d (x int)', 'NOT SQL'] }])).rejects.toThrow();
    const versions = await admin.query(`SELECT version FROM ${schema}.ledger_rx_migrations ORDER BY version`);
    expect(versions.rows.map((r: { version: number }) => r.version)).toEqual([1, 2, 3]);
    const d = await admin.query(`SELECT to_regclass('${schema}.d') AS t`);
    expect(d.rows[0].t).toBeNull();
    await expect(runMigrations(db(admin), 'Bad-Name')).rejects.toThrow(RangeError);
  });

  it('writes a batch with COPY and keeps active_contracts netted', async () => {
    const schema = `mig_write_${unique}`;
    await runMigrations(db(admin), schema);
    const p = pool(schema);
    const created = (offset: number, nodeId: number, id: string, key: unknown = null) => ({
      CreatedEvent: {
        offset, nodeId, contractId: id, templateId: 'pkg:Iou:Iou', contractKey: key, createArgument: { n: id, text: 'line\nbreak "q"' },
        witnessParties: ['A::1'], signatories: ['A::1'], observers: ['B "x"::1'], createdAt: '2026-01-01T00:00:00Z', packageName: 'demo',
        representativePackageId: 'pkg', acsDelta: true,
      },
    });
    const tx = (offset: number, events: unknown[]) =>
      decodeUpdateElement({ update: { Transaction: { value: { updateId: `u${offset}`, commandId: 'c', workflowId: '', effectiveAt: '2026-01-01T00:00:00Z', events, offset, synchronizerId: 's1', recordTime: '2026-01-01T00:00:00Z' } } } }, 0, { validate: false });
    let after = -1;
    const write = async (batch: IngestBatch) => {
      const position = { offset: batch.lastOffset as number, synchronizerTimes: [] };
      const none = new Set<string>();
      await pgSqlDatabase(p).script?.(new BatchScript(batch).steps({ after, position, updatedAt: '2026-01-01T00:00:00Z', channel: 'c', notedTemplates: none, notedChoices: none }));
      after = position.offset;
    };
    const b1 = new IngestBatch('st');
    b1.add(tx(1, [created(1, 0, 'a', { k: 1 }), created(1, 1, 'b')]));
    await write(b1);
    const b2 = new IngestBatch('st');
    b2.add(tx(2, [{ ArchivedEvent: { offset: 2, nodeId: 0, contractId: 'a', templateId: 'pkg:Iou:Iou', witnessParties: ['A::1'], packageName: 'demo' } }, created(2, 1, 'c')]));
    b2.add(tx(3, [{ ArchivedEvent: { offset: 3, nodeId: 0, contractId: 'c', templateId: 'pkg:Iou:Iou', witnessParties: ['A::1'], packageName: 'demo' } }]));
    await write(b2);
    const active = await p.query('SELECT contract_id, created_offset, synchronizer_id, observers, contract_key, create_argument FROM active_contracts ORDER BY contract_id');
    expect(active.rows).toEqual([
      { contract_id: 'b', created_offset: '1', synchronizer_id: 's1', observers: ['B "x"::1'], contract_key: null, create_argument: { n: 'b', text: 'line\nbreak "q"' } },
    ]);
    const createdRows = await p.query('SELECT ledger_offset, node_id, contract_id, contract_key FROM created_events ORDER BY ledger_offset, node_id');
    expect(createdRows.rows).toEqual([
      { ledger_offset: '1', node_id: 0, contract_id: 'a', contract_key: { k: 1 } },
      { ledger_offset: '1', node_id: 1, contract_id: 'b', contract_key: null },
      { ledger_offset: '2', node_id: 1, contract_id: 'c', contract_key: null },
    ]);
    const updates = await p.query('SELECT ledger_offset, kind, element FROM updates ORDER BY ledger_offset');
    expect(updates.rows.map((r: { ledger_offset: string }) => r.ledger_offset)).toEqual(['1', '2', '3']);
    expect(updates.rows[0].element.update.Transaction.value.events[0].CreatedEvent.createArgument.text).toBe('line\nbreak "q"');
    expect((await p.query('SELECT count(*)::int AS n FROM archived_events')).rows[0].n).toBe(2);
  });
});
