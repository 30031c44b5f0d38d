import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { pgSqlDatabase } from '../../src/checkpoints/pg-sql-database.js';
import { ErrorCodes } from '../../src/errors/error-codes.js';
import { pgArrayLiteral } from '../../src/sinks/postgres/pg-array-literal.js';
import { PostgresSink } from '../../src/sinks/postgres/postgres-sink.js';
import type { JsGetActiveContractsResponse } from '../../src/schemas/index.js';
import type { JsGetUpdatesResponse } from '../../src/schemas/updates.js';
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

describe.runIf(pgUrl)('PostgresSink', () => {
  const pools: pg.Pool[] = [];
  const pool = (schema: string) => {
    const p = new pg.Pool({ connectionString: pgUrl, max: 3, options: `-c search_path=${schema}` });
    pools.push(p);
    return p;
  };
  afterAll(async () => {
    await Promise.all(pools.map((p) => p.end()));
  });

  it('commits rows and position together, skips a unit already stored, and resumes from the stored position', async () => {
    const schema = `sink_once_${unique}`;
    const p = pool(schema);
    const sink = new PostgresSink({ database: pgSqlDatabase(p), schema, streamName: 's' });
    expect(await sink.start()).toBeUndefined();
    await sink.write([tx(1), tx(2)]);
    expect(await sink.commit(at(2))).toMatchObject({ applied: true, updates: 2 });
    // the same unit again (read again after a crash): nothing written twice
    await sink.write([tx(1), tx(2)]);
    expect(await sink.commit(at(2))).toEqual({ applied: false, updates: 0, bytes: 0 });
    // two units in flight commit in call order
    await sink.write([tx(3)]);
    const third = sink.commit(at(3));
    await sink.write([tx(5)]);
    const fifth = sink.commit(at(5));
    expect((await Promise.all([third, fifth])).map((c) => c.applied)).toEqual([true, true]);
    await sink.close();

    const rows = await p.query<{ o: string }>("SELECT ledger_offset AS o FROM updates WHERE stream_name = 's' ORDER BY 1");
    expect(rows.rows.map((r) => Number(r.o))).toEqual([1, 2, 3, 5]);
    const again = new PostgresSink({ database: pgSqlDatabase(p), schema, streamName: 's' });
    expect(await again.start()).toMatchObject(at(5));
    await again.close();
  });

  it('reads back every value pgArrayLiteral encodes, as pg itself would send it', async () => {
    const p = pool('public');
    const texts = ['Alice::1220ab', '2026-01-01T00:00:00.5Z', '', 'null', 'NULL', 'a,b', '{x}', ' sp ', 'q"uote', 'back\\slash', 'é ü', 'tab\tnl\n', null];
    const lists = [['A::1', 'B::2'], [], ['x"y', 'null', ''], ['\\']];
    const r = await p.query<{ t: (string | null)[]; n: string[]; b: boolean[]; l: string[] }>(
      'SELECT $1::text[] AS t, $2::bigint[]::text[] AS n, $3::boolean[] AS b, ARRAY(SELECT array_to_json(x::text[])::text FROM unnest($4::text[]) AS x) AS l',
      [pgArrayLiteral(texts), pgArrayLiteral([0, -12, 9007199254740991]), pgArrayLiteral([true, false]), pgArrayLiteral(lists.map((l) => pgArrayLiteral(l)))],
    );
    expect(r.rows[0]).toEqual({ t: texts, n: ['0', '-12', '9007199254740991'], b: [true, false], l: lists.map((l) => JSON.stringify(l)) });
  });

  it('bootstrap: the snapshot and its checkpoint in one transaction — all or nothing, each contract once, then the updates after it; only for a new stream', async () => {
    const schema = `sink_snap_${unique}`;
    const p = pool(schema);
    const created = (id: string) => ({ contractId: id, offset: 3, nodeId: 0, templateId: 'pkg:M:T', packageName: 'demo', createArgument: { id }, signatories: ['A::1'], observers: [], witnessParties: ['A::1'], createdAt: '2026-01-01T00:00:00Z' });
    const entry = (contractEntry: unknown) => ({ workflowId: '', contractEntry }) as unknown as JsGetActiveContractsResponse;
    const active = (id: string, synchronizerId = 's1') => entry({ JsActiveContract: { createdEvent: created(id), synchronizerId, reassignmentCounter: 0 } });
    const assigned = entry({ JsIncompleteAssigned: { assignedEvent: { source: 's1', target: 's2', reassignmentId: 'r', reassignmentCounter: 2, createdEvent: created('c4') } } });
    const inFlight = entry({ JsIncompleteUnassigned: { createdEvent: created('c5'), unassignedEvent: { contractId: 'c5', source: 's1', target: 's2' } } });
    async function* chunks(...lists: JsGetActiveContractsResponse[][]) {
      for (const list of lists) yield list;
    }
    async function* failing() {
      yield [active('x1'), active('x2')];
      throw new Error('connection lost mid-snapshot');
    }
    const sink = new PostgresSink({ database: pgSqlDatabase(p), schema, streamName: 's' });
    expect(await sink.start()).toBeUndefined();
    // a snapshot that fails half-way leaves nothing, and the stream may try again
    await expect(sink.bootstrap(7, failing())).rejects.toThrow('connection lost mid-snapshot');
    expect((await p.query("SELECT count(*)::int AS n FROM active_contracts")).rows[0].n).toBe(0);
    expect((await p.query("SELECT count(*)::int AS n FROM ledger_rx_checkpoints WHERE ledger_offset >= 0")).rows[0].n).toBe(0);
    const stored = await sink.bootstrap(7, chunks([active('c1'), active('c2'), entry({ JsEmpty: {} })], [assigned, inFlight, active('c1', 's2')]));
    expect(stored).toEqual({ entries: 6, contracts: 3, incompleteUnassigned: 1 });
    // the updates after the snapshot continue from its offset
    await sink.write([tx(8)]);
    expect(await sink.commit(at(8))).toMatchObject({ applied: true, updates: 1 });
    await expect(sink.bootstrap(9, chunks([active('c9')]))).rejects.toMatchObject({ code: ErrorCodes.SINK_CONFLICT });
    await sink.close();
    const rows = await p.query("SELECT contract_id AS id, synchronizer_id AS s, reassignment_counter::int AS rc, origin FROM active_contracts ORDER BY 1");
    expect(rows.rows).toEqual([
      { id: 'c1', s: 's1', rc: 0, origin: 'snapshot' },
      { id: 'c2', s: 's1', rc: 0, origin: 'snapshot' },
      { id: 'c4', s: 's2', rc: 2, origin: 'snapshot' },
    ]);
    expect((await p.query("SELECT snapshot_offset::int AS o, contracts::int AS n, incomplete_unassigned::int AS f FROM ledger_rx_snapshots")).rows).toEqual([{ o: 7, n: 3, f: 1 }]);
    const again = new PostgresSink({ database: pgSqlDatabase(p), schema, streamName: 's' });
    expect((await again.start())?.offset).toBe(8);
    await expect(again.bootstrap(9, chunks([active('c9')]))).rejects.toMatchObject({ code: ErrorCodes.SINK_CONFLICT });
    await again.close();
  });

  it('rolls a failed unit back whole and refuses every later unit', async () => {
    const schema = `sink_fail_${unique}`;
    const p = pool(schema);
    const sink = new PostgresSink({ database: pgSqlDatabase(p), schema, streamName: 's' });
    await sink.start();
    await sink.write([tx(1)]);
    await sink.commit(at(1));
    await p.query('ALTER TABLE updates ADD CONSTRAINT no_two CHECK (ledger_offset <> 2)');
    await sink.write([tx(2)]);
    const failed = sink.commit(at(2));
    await sink.write([tx(3)]);
    const later = sink.commit(at(3));
    await expect(failed).rejects.toThrow(/no_two/);
    await expect(later).rejects.toThrow(/no_two/);
    await expect(sink.write([tx(4)])).rejects.toThrow(/no_two/);
    const checkpoint = await p.query<{ o: string }>("SELECT ledger_offset AS o FROM ledger_rx_checkpoints WHERE stream_name = 's'");
    expect(Number(checkpoint.rows[0]?.o)).toBe(1);
    await sink.close();
  });

  it('connect(): one writer per stream; the second fails with SINK_CONFLICT after lockWaitMs, and an aborted wait rejects with the reason', async () => {
    const schema = `sink_lock_${unique}`;
    const first = await PostgresSink.connect({ url: pgUrl as string, schema, streamName: 'x' });
    await first.start();
    const second = await PostgresSink.connect({ url: pgUrl as string, schema, streamName: 'x', lockWaitMs: 300 });
    await expect(second.start()).rejects.toMatchObject({ code: ErrorCodes.SINK_CONFLICT });
    await second.close();
    const third = await PostgresSink.connect({ url: pgUrl as string, schema, streamName: 'x', lockWaitMs: 60_000 });
    const stop = new AbortController();
    const started = third.start(stop.signal);
    setTimeout(() => stop.abort(new Error('stopped')), 100);
    await expect(started).rejects.toThrow('stopped');
    await third.close();
    await first.close();
    const fourth = await PostgresSink.connect({ url: pgUrl as string, schema, streamName: 'x', lockWaitMs: 0 });
    expect(await fourth.start()).toBeUndefined();
    await fourth.close();
  });
});
