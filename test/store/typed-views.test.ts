import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { pgSqlDatabase } from '../../src/checkpoints/pg-sql-database.js';
import type { SqlDatabase } from '../../src/checkpoints/sql-database.js';
import { readDarFile, type Dar } from '../../src/daml/index.js';
import type { JsGetActiveContractsResponse } from '../../src/schemas/index.js';
import type { JsGetUpdatesResponse } from '../../src/schemas/updates.js';
import { openEmbeddedPostgres } from '../../src/sinks/postgres/open-embedded-postgres.js';
import { PostgresSink, type PostgresSinkStatus } from '../../src/sinks/postgres/postgres-sink.js';
import { typedViewDefinitions } from '../../src/sinks/postgres/typed-view-definitions.js';

// Typed views (docs/query-store.md, "Typed views"): a PostgresSink given DARs makes one SQL view per template and
// interface, over the stream's active contracts, one column per field in its SQL type; on both stores, in process.

const pgUrl = inject('pgUrl');
const unique = `${process.pid}_${Date.now() % 100000}`;

let richtypes: Dar;
let holding: Dar;
let RICH: string;
let HOLDING: string;
beforeAll(async () => {
  richtypes = await readDarFile('../shared/dars/richtypes.dar');
  holding = await readDarFile('../shared/dars/splice-api-token-holding-v1.dar');
  RICH = richtypes.mainPackageId;
  HOLDING = holding.mainPackageId;
});

/** A RichRecord argument as the participant encodes it: Int64 and Numeric as strings, Numeric with its full scale. */
function richPayload(n: number): Record<string, unknown> {
  return {
    owner: `Owner${n}::1220`,
    count: n === 2 ? '-9223372036854775808' : String(n),
    amount: n === 2 ? '-1234567890123456789012345678.1234567891' : `${n}.0000000001`,
    label: `it's "${n}"`,
    active: n % 2 === 1,
    asOf: n === 2 ? '0001-01-01' : '2026-11-27',
    observedAt: n === 2 ? '2026-11-27T16:22:44.123456Z' : '1969-12-31T23:59:59.5Z',
    note: n === 2 ? null : 'a note',
    tags: n === 2 ? [] : ['a', 'b'],
    attributes: { k: `v${n}` },
    marker: `00marker${n}`,
    profile: { nickname: `nick${n}`, level: String(n * 1000) },
    outcome: n === 2 ? { tag: 'Pending', value: {} } : { tag: 'Win', value: { prize: '1.50', tier: 'gold' } },
    fee: '0.25',
  };
}

const holdingView = (n: number) => ({
  owner: `Owner${n}::1220`,
  instrumentId: { admin: 'Dso::1220', id: 'Amulet' },
  amount: `${n}.5000000000`,
  lock: null,
  meta: { values: { a: 'b' } },
});

function createdEvent(offset: number, nodeId: number, templateId: string, packageName: string, createArgument: unknown, views: unknown[] = []) {
  return {
    offset, nodeId, contractId: `00c${offset}n${nodeId}`, templateId, packageName, createArgument, contractKey: null, interfaceViews: views,
    witnessParties: ['Alice::1220'], signatories: ['Alice::1220'], observers: ['Bob::1220'], createdAt: '2026-11-27T10:00:00Z', acsDelta: true,
  };
}

function transaction(offset: number, events: unknown[]): JsGetUpdatesResponse {
  return {
    update: { Transaction: { value: { updateId: `u${offset}`, commandId: `c${offset}`, workflowId: '', effectiveAt: '2026-11-27T10:00:00Z', events, offset, synchronizerId: 'sync::1', recordTime: '2026-11-27T10:00:00Z', traceContext: null } } },
  } as unknown as JsGetUpdatesResponse;
}

const view = (n: number, status = 0) => ({
  interfaceId: `${HOLDING}:Splice.Api.Token.HoldingV1:Holding`,
  viewStatus: { code: status, message: '', details: [] },
  viewValue: status === 0 ? holdingView(n) : null,
});
/** An app template (no DAR declares it) that implements Holding: its creates carry the interface's view. */
const TOKEN = `${'b'.repeat(64)}:Token:Token`;

interface Store {
  readonly database: SqlDatabase;
  readonly schema: string;
  close(): Promise<void>;
}

async function serverStoreDb(url: string): Promise<Store> {
  const schema = `tv_${unique}_${Math.floor(Math.random() * 1e6)}`;
  const pool = new pg.Pool({ connectionString: url, max: 2, options: `-c search_path=${schema}` });
  return {
    database: pgSqlDatabase(pool),
    schema,
    close: async () => {
      await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await pool.end();
    },
  };
}

async function embeddedStoreDb(): Promise<Store> {
  const dir = await mkdtemp(join(tmpdir(), 'ledger-rx-typed-views-'));
  const embedded = await openEmbeddedPostgres(dir, { lockWaitMs: 0 });
  return {
    database: embedded.database,
    schema: 'public',
    close: async () => {
      await embedded.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

const stores: [string, () => Promise<Store>][] = [
  ['embedded (PGlite)', embeddedStoreDb],
  ...(pgUrl ? ([['PostgreSQL server', () => serverStoreDb(pgUrl)]] as [string, () => Promise<Store>][]) : []),
];

const position = (offset: number) => ({ offset, synchronizerTimes: [] });

describe('typedViewDefinitions', () => {
  it('a view per template of the main package and per interface, columns in their SQL types after the lead columns', () => {
    const defs = typedViewDefinitions([richtypes, holding]);
    expect(defs.map((d) => [d.name, d.kind])).toEqual([
      ['RichTypes.Marker', 'template'],
      ['RichTypes.RichRecord', 'template'],
      ['Splice.Api.Token.HoldingV1.Holding', 'interface'],
    ]);
    const rich = defs.find((d) => d.name === 'RichTypes.RichRecord');
    expect(Object.fromEntries((rich?.columns ?? []).map((c) => [c.name, c.type]))).toEqual({
      contract_id: 'text', template_id: 'text', package_name: 'text', created_at_offset: 'bigint', created_at: 'timestamptz', signatories: 'text[]', observers: 'text[]',
      owner: 'text', count: 'bigint', amount: 'numeric(38,10)', label: 'text', active: 'boolean', asOf: 'date', observedAt: 'timestamptz', note: 'text',
      tags: 'jsonb', attributes: 'jsonb', marker: 'text', profile: 'jsonb', outcome: 'jsonb', fee: 'numeric(38,2)',
    });
  });
});

describe.each(stores)('typed views on %s', (_name, makeStore) => {
  let store: Store;
  beforeAll(async () => {
    store = await makeStore();
  });
  afterAll(async () => {
    await store?.close();
  });

  const query = async <R,>(text: string, values?: readonly unknown[]): Promise<R[]> =>
    (await store.database.transaction(async (tx) => {
      await tx.query(`SET LOCAL search_path TO ${store.schema}`);
      return tx.query<R>(text, values);
    })).rows;

  const sinkWith = (dars: readonly Dar[], statuses: PostgresSinkStatus[] = []) =>
    new PostgresSink({ database: store.database, schema: store.schema, streamName: 'default', dars, onStatus: (s) => statuses.push(s) });

  it('select owner, amount from "RichTypes.RichRecord": the active contracts, each field in its type; interface views from the events\' views', async () => {
    const statuses: PostgresSinkStatus[] = [];
    const sink = sinkWith([richtypes, holding], statuses);
    await sink.start();
    expect(statuses.find((s) => s.type === 'typed-views')).toEqual({
      type: 'typed-views',
      views: [
        { name: 'RichTypes.Marker', kind: 'template', action: 'created' },
        { name: 'RichTypes.RichRecord', kind: 'template', action: 'created' },
        { name: 'Splice.Api.Token.HoldingV1.Holding', kind: 'interface', action: 'created' },
      ],
    });
    // a snapshot with a RichRecord and a Token with its Holding view, then updates
    const snapshot = [
      { contractEntry: { JsActiveContract: { createdEvent: createdEvent(1, 0, `${RICH}:RichTypes:RichRecord`, 'richtypes', richPayload(1)), synchronizerId: 'sync::1', reassignmentCounter: 0 } } },
      { contractEntry: { JsActiveContract: { createdEvent: createdEvent(1, 1, TOKEN, 'token', { owner: 'Owner1::1220' }, [view(1)]), synchronizerId: 'sync::1', reassignmentCounter: 0 } } },
    ] as unknown as JsGetActiveContractsResponse[];
    await sink.bootstrap(3, (async function* () {
      yield snapshot;
    })());
    await sink.write([
      transaction(4, [
        { CreatedEvent: createdEvent(4, 0, `${RICH}:RichTypes:RichRecord`, 'richtypes', richPayload(2)) },
        { CreatedEvent: createdEvent(4, 1, `${RICH}:RichTypes:RichRecord`, 'richtypes', richPayload(3)) },
        { CreatedEvent: createdEvent(4, 2, TOKEN, 'token', { owner: 'Owner4::1220' }, [view(4)]) },
        // a view the participant failed to compute is not a row
        { CreatedEvent: createdEvent(4, 3, TOKEN, 'token', { owner: 'Owner5::1220' }, [view(5, 9)]) },
      ]),
      transaction(5, [{ ArchivedEvent: { offset: 5, nodeId: 0, contractId: '00c4n1', templateId: `${RICH}:RichTypes:RichRecord`, packageName: 'richtypes', witnessParties: ['Alice::1220'] } }]),
    ]);
    await sink.commit(position(5));

    const rows = await query<Record<string, unknown>>(
      `SELECT contract_id, owner, amount::text AS amount, count::text AS count, label, active, "asOf"::text AS as_of, to_char("observedAt" AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.US') AS observed_at,
              note, tags, attributes, profile, outcome, fee::text AS fee, created_at_offset::int AS created_at_offset, signatories, observers
         FROM "RichTypes.RichRecord" ORDER BY contract_id`,
    );
    expect(rows).toEqual([
      {
        contract_id: '00c1n0', owner: 'Owner1::1220', amount: '1.0000000001', count: '1', label: 'it\'s "1"', active: true, as_of: '2026-11-27', observed_at: '1969-12-31 23:59:59.500000',
        note: 'a note', tags: ['a', 'b'], attributes: { k: 'v1' }, profile: { nickname: 'nick1', level: '1000' }, outcome: { tag: 'Win', value: { prize: '1.50', tier: 'gold' } }, fee: '0.25',
        created_at_offset: 1, signatories: ['Alice::1220'], observers: ['Bob::1220'],
      },
      {
        contract_id: '00c4n0', owner: 'Owner2::1220', amount: '-1234567890123456789012345678.1234567891', count: '-9223372036854775808', label: 'it\'s "2"', active: false, as_of: '0001-01-01',
        observed_at: '2026-11-27 16:22:44.123456', note: null, tags: [], attributes: { k: 'v2' }, profile: { nickname: 'nick2', level: '2000' }, outcome: { tag: 'Pending', value: {} },
        fee: '0.25', created_at_offset: 4, signatories: ['Alice::1220'], observers: ['Bob::1220'],
      },
    ]);
    const types = await query<{ column_name: string; data_type: string }>(
      `SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = $1 AND table_name = 'RichTypes.RichRecord' ORDER BY ordinal_position`,
      [store.schema],
    );
    expect(Object.fromEntries(types.map((t) => [t.column_name, t.data_type]))).toMatchObject({
      owner: 'text', count: 'bigint', amount: 'numeric', active: 'boolean', asOf: 'date', observedAt: 'timestamp with time zone', tags: 'jsonb', created_at_offset: 'bigint',
    });
    expect(await query('SELECT owner, amount::text AS amount FROM "RichTypes.RichRecord" WHERE owner = $1', ['Owner2::1220'])).toEqual([
      { owner: 'Owner2::1220', amount: '-1234567890123456789012345678.1234567891' },
    ]);
    // the interface's view: the active contracts with a computed Holding view, from the snapshot and from updates
    expect(
      await query(`SELECT contract_id, template_id, owner, "instrumentId", amount::text AS amount, lock, meta FROM "Splice.Api.Token.HoldingV1.Holding" ORDER BY contract_id`),
    ).toEqual([
      { contract_id: '00c1n1', template_id: TOKEN, owner: 'Owner1::1220', instrumentId: { admin: 'Dso::1220', id: 'Amulet' }, amount: '1.5000000000', lock: null, meta: { values: { a: 'b' } } },
      { contract_id: '00c4n2', template_id: TOKEN, owner: 'Owner4::1220', instrumentId: { admin: 'Dso::1220', id: 'Amulet' }, amount: '4.5000000000', lock: null, meta: { values: { a: 'b' } } },
    ]);
    // archived: gone from both views
    await sink.write([
      transaction(6, [{ ArchivedEvent: { offset: 6, nodeId: 0, contractId: '00c4n2', templateId: TOKEN, packageName: 'token', witnessParties: ['Alice::1220'] } }]),
    ]);
    await sink.commit(position(6));
    expect((await query<{ contract_id: string }>(`SELECT contract_id FROM "Splice.Api.Token.HoldingV1.Holding"`)).map((r) => r.contract_id)).toEqual(['00c1n1']);
    await sink.close();

    // started again with the same DARs: replaced in place, the same answers
    const again: PostgresSinkStatus[] = [];
    const second = sinkWith([richtypes, holding], again);
    await second.start();
    expect(again.find((s) => s.type === 'typed-views')).toMatchObject({ views: [{ action: 'replaced' }, { action: 'replaced' }, { action: 'replaced' }] });
    expect((await query<{ n: unknown }>('SELECT count(*)::int AS n FROM "RichTypes.RichRecord"'))[0]?.n).toBe(2);
    await second.close();

    // a view whose recorded columns differ (as after an incompatible package change) is dropped and created again
    await query(`UPDATE ledger_rx_typed_views SET columns = jsonb_build_array(jsonb_build_object('name', 'gone', 'type', 'text')) WHERE view_name = 'RichTypes.Marker'`);
    const third: PostgresSinkStatus[] = [];
    const sink3 = sinkWith([richtypes], third);
    await sink3.start();
    expect(third.find((s) => s.type === 'typed-views')).toMatchObject({ views: [{ name: 'RichTypes.Marker', action: 'recreated' }, { name: 'RichTypes.RichRecord', action: 'replaced' }] });
    await sink3.close();

    // a relation of the user's with a view's name is never replaced
    await query(`DROP VIEW "RichTypes.Marker"`);
    await query(`CREATE TABLE "RichTypes.Marker" (x int)`);
    await expect(sinkWith([richtypes]).start()).rejects.toMatchObject({ code: 'SINK_CONFLICT', message: expect.stringContaining('"RichTypes.Marker"') as unknown });
    await query(`DROP TABLE "RichTypes.Marker"`);
  });

  it('a redaction nulls the interface view values; a reset removes the views of the updates it removes', async () => {
    const sink = sinkWith([holding]);
    await sink.start();
    await sink.write([transaction(7, [{ CreatedEvent: createdEvent(7, 0, TOKEN, 'token', { owner: 'Owner7::1220' }, [view(7)]) }])]);
    await sink.commit(position(7));
    await sink.write([transaction(8, [{ ArchivedEvent: { offset: 8, nodeId: 0, contractId: '00c7n0', templateId: TOKEN, packageName: 'token', witnessParties: ['Alice::1220'] } }])]);
    await sink.commit(position(8));
    await sink.write([transaction(9, [{ CreatedEvent: createdEvent(9, 0, TOKEN, 'token', { owner: 'Owner9::1220' }, [view(9)]) }])]);
    await sink.commit(position(9));
    await sink.close();
    const views = () => query<{ contract_id: string; owner: string | null }>(`SELECT contract_id, view_value ->> 'owner' AS owner FROM ledger_rx_interface_views WHERE contract_id IN ('00c7n0', '00c9n0') ORDER BY 1`);
    expect(await views()).toEqual([{ contract_id: '00c7n0', owner: 'Owner7::1220' }, { contract_id: '00c9n0', owner: 'Owner9::1220' }]);
    await query(`SELECT ledger_rx_redact_contract('default', '00c7n0', 'r-1')`);
    expect(await views()).toEqual([{ contract_id: '00c7n0', owner: null }, { contract_id: '00c9n0', owner: 'Owner9::1220' }]);
    const element = (await query<{ e: { update: { Transaction: { value: { events: { CreatedEvent: { interfaceViews: { viewValue: unknown }[] } }[] } } } } }>(`SELECT element AS e FROM updates WHERE ledger_offset = 7`))[0]?.e;
    expect(element?.update.Transaction.value.events[0]?.CreatedEvent.interfaceViews[0]?.viewValue).toBeNull();
    await query(`SELECT * FROM ledger_rx_reset_to('default', 8)`);
    expect(await views()).toEqual([{ contract_id: '00c7n0', owner: null }]);
  });
});
