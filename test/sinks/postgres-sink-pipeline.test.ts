import { from, lastValueFrom } from 'rxjs';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { pgSqlDatabase } from '../../src/checkpoints/pg-sql-database.js';
import type { SqlDatabase, SqlScriptStep } from '../../src/checkpoints/sql-database.js';
import type { JsGetUpdatesResponse } from '../../src/schemas/updates.js';
import { BatchCommitter } from '../../src/sinks/batch-committer.js';
import { PostgresSink } from '../../src/sinks/postgres/postgres-sink.js';
import { decodeUpdateElement } from '../../src/updates/decode-update-element.js';

const pgUrl = inject('pgUrl');
const unique = `${process.pid}_${Date.now() % 100000}`;

const tx = (offset: number): JsGetUpdatesResponse =>
  decodeUpdateElement(
    {
      update: {
        Transaction: {
          value: {
            updateId: `u${offset}`, commandId: 'c', workflowId: '', effectiveAt: '2026-01-01T00:00:00Z', offset, synchronizerId: 's1', recordTime: '2026-01-01T00:00:00Z',
            events: [{ CreatedEvent: { offset, nodeId: 0, contractId: `c${offset}`, templateId: 'pkg:M:T', createArgument: { n: offset }, witnessParties: ['A::1'], signatories: ['A::1'], observers: [], packageName: 'demo', acsDelta: true } }],
          },
        },
      },
    },
    0,
    { validate: false },
  );
const wait = (input: ReturnType<BatchCommitter['add']>) => lastValueFrom(from(input), { defaultValue: undefined });

/** `database` whose scripts wait for `gate` (when set) before they run: a batch still committing. */
function gated(database: SqlDatabase): { database: SqlDatabase; hold: () => () => void; scripts: () => number; idle: () => Promise<unknown> } {
  let gate: Promise<void> | undefined;
  let count = 0;
  const running: Promise<unknown>[] = [];
  return {
    database: {
      query: (text, values) => database.query(text, values),
      transaction: (fn) => database.transaction(fn),
      script: (steps: readonly SqlScriptStep[]) => {
        count++;
        const run = (async () => {
          await gate;
          return database.script?.(steps);
        })();
        running.push(run.catch(() => undefined));
        return run;
      },
    },
    idle: () => Promise.all(running),
    hold: () => {
      let open = () => undefined as void;
      gate = new Promise<void>((r) => (open = r));
      return () => {
        gate = undefined;
        open();
      };
    },
    scripts: () => count,
  };
}

describe.runIf(pgUrl)('PostgresSink under BatchCommitter: the next batch is read while the last one commits', () => {
  const pools: pg.Pool[] = [];
  const pool = (schema: string) => {
    const p = new pg.Pool({ connectionString: pgUrl, max: 3, options: `-c search_path=${schema}` });
    pools.push(p);
    return p;
  };
  afterAll(async () => {
    await Promise.all(pools.map((p) => p.end()));
  });
  const stored = async (p: pg.Pool) => ({
    updates: (await p.query<{ o: string }>("SELECT ledger_offset AS o FROM updates WHERE stream_name = 's' ORDER BY 1")).rows.map((r) => Number(r.o)),
    active: (await p.query<{ c: string }>("SELECT contract_id AS c FROM active_contracts WHERE stream_name = 's' ORDER BY created_offset")).rows.map((r) => r.c),
    checkpoint: Number((await p.query<{ o: string }>("SELECT ledger_offset AS o FROM ledger_rx_checkpoints WHERE stream_name = 's'")).rows[0]?.o ?? -1),
  });

  it('a read that fails while a batch commits loses nothing and duplicates nothing: that batch commits, the open one is read again after a restart', async () => {
    const schema = `pipe_read_${unique}`;
    const p = pool(schema);
    const g = gated(pgSqlDatabase(p));
    const sink = new PostgresSink({ database: g.database, schema, streamName: 's' });
    const failures: unknown[] = [];
    const batches = new BatchCommitter({ sink, size: 3, maxDelayMs: 60_000, start: await sink.start(), onFailure: (e) => failures.push(e) });
    for (const o of [1, 2, 3]) await wait(batches.add(tx(o)));
    const release = g.hold();
    // batch 2 is handed over and waits in its commit; the read goes on into batch 3 meanwhile
    for (const o of [4, 5, 6, 7, 8]) await wait(batches.add(tx(o)));
    // the read fails here (as drainIntoSink ends on a source error): the open batch is dropped, not committed
    batches.dispose();
    release();
    await g.idle(); // batch 2, in flight when the read failed, commits
    await sink.close();
    expect(g.scripts()).toBe(2);
    expect(await stored(p)).toEqual({ updates: [1, 2, 3, 4, 5, 6], active: ['c1', 'c2', 'c3', 'c4', 'c5', 'c6'], checkpoint: 6 });

    // the restart resumes after the last committed batch and reads 7 and 8 again
    const again = new PostgresSink({ database: pgSqlDatabase(p), schema, streamName: 's' });
    const resumed = await again.start();
    expect(resumed?.offset).toBe(6);
    const next = new BatchCommitter({ sink: again, size: 3, maxDelayMs: 60_000, start: resumed, onFailure: (e) => failures.push(e) });
    for (const o of [7, 8, 9, 10]) await wait(next.add(tx(o)));
    await next.flush();
    await again.close();
    expect(failures).toEqual([]);
    expect(await stored(p)).toEqual({ updates: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], active: ['c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7', 'c8', 'c9', 'c10'], checkpoint: 10 });
  });

  it('a failed commit surfaces its error, and the batch read behind it is not committed', async () => {
    const schema = `pipe_fail_${unique}`;
    const p = pool(schema);
    const g = gated(pgSqlDatabase(p));
    const sink = new PostgresSink({ database: g.database, schema, streamName: 's' });
    const failures: unknown[] = [];
    const batches = new BatchCommitter({ sink, size: 3, maxDelayMs: 60_000, start: await sink.start(), onFailure: (e) => failures.push(e) });
    for (const o of [1, 2, 3]) await wait(batches.add(tx(o)));
    await wait(batches.add(tx(4))); // the open batch is being read when batch 1 has committed
    // another writer stores a row where batch 2 will COPY it (no checkpoint): the database refuses batch 2
    await p.query(`INSERT INTO updates (stream_name, ledger_offset, update_id, kind, element) VALUES ('s', 5, 'intruder', 'unknown', '{}')`);
    const release = g.hold();
    // batch 2 is handed over and waits in its commit while the read goes on into batch 3
    for (const o of [5, 6, 7, 8]) await wait(batches.add(tx(o)));
    release();
    await expect(batches.flush()).rejects.toMatchObject({ code: '23505' }); // unique violation, as the database said it
    expect(failures).toHaveLength(1);
    expect(() => batches.add(tx(9))).toThrow();
    await g.idle();
    await sink.close();
    // batch 2 rolled back whole (checkpoint included); batch 3 never reached the database
    expect(g.scripts()).toBe(2);
    expect(await stored(p)).toEqual({ updates: [1, 2, 3, 5], active: ['c1', 'c2', 'c3'], checkpoint: 3 });
  });
});
