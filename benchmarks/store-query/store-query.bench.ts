/**
 * Question: what do the query store's SQL functions (`active`, `active` at an offset, `lookup_contract`) cost
 * on a store of 10^6 contracts, against the same questions written by hand on the tables?
 *
 * Fixture: a local PostgreSQL (initdb'ed into a temp dir, fsync off: the benchmark measures reads), the schema
 * made by `PostgresSink` (every migration, so the functions are the shipped ones), then filled by SQL with a
 * ledger of N one-create transactions (offsets 1..N; 99% template `bench:Main:Iou`, 1% `bench:Main:Trade`)
 * followed by N/5 one-archive transactions (offsets N+1..N+N/5, archiving every fifth contract), the active
 * contracts of that ledger in `active_contracts`, and the checkpoint at the last offset: what an ingest of
 * the same ledger writes, without the participant (an ingest of 1.2·10^6 updates would take minutes and
 * measure ingestion, not the queries). `ANALYZE` after the load.
 *
 * Each question runs `--repeat` times (after 3 warm-ups; the count over the large template `--heavy-repeat` times after 1), function and hand-written query alternating; the
 * rows are read to the end by the client (pg, one connection). Reported: p50 and p99 of the wall time per
 * query in ms, and the ratio of the function's p50 to the hand-written one's.
 *
 *   - `active('Trade')`: the ~10^4 active contracts of the small template, every column;
 *   - `active('Trade', at)` at the middle of the creates: the same at a past offset;
 *   - `count(*) FROM active('Iou')`: the ~8·10^5 active contracts of the large template, counted;
 *   - `lookup_contract(id)`: one contract (a random one per call) by id;
 *   - `active('Holding')`: the ~10^4 active contracts of the interface Holding (implemented by Trade, its views stored
 *     for every Trade contract, the interface in the stream's recorded scope), every column;
 *   - `active('Trade') WHERE payload ->> 'amount' = …`: a filter on the payload, the few matching contracts.
 *
 * A question the store's functions refuse (an interface's name before migration 10) is reported as an error, not
 * timed.
 *
 * Run (after the root `npm run build`; needs PostgreSQL installed):
 *
 *     npm --prefix benchmarks run build && node benchmarks/node_modules/.bench-build/store-query/store-query.bench.js [--quick] [--contracts=1000000] [--repeat=50] [--heavy-repeat=7] [--explain [--hold]]
 *
 * Writes benchmarks/results/store-query.json; the table is in benchmarks/README.md.
 */
import pg from 'pg';
import { PostgresSink } from 'ledger-rx/postgres';
import { flag, log, mode, numberOption } from '../lib/args.js';
import { startBenchRun } from '../lib/bench-run.js';
import { startPostgres } from '../lib/postgres.js';
import { figure, quantile, type Row } from '../lib/report.js';

const stream = 'bench';
const iou = 'pkg0:Main:Iou';
const trade = 'pkg0:Main:Trade';
const holding = 'ifc0:Main:Holding';

/** Fills the schema with the ledger described above, in a few set-based statements. */
async function load(db: pg.Client, n: number): Promise<void> {
  const archived = Math.floor(n / 5);
  const party = `'Alice::1220' || repeat('ab', 32)`;
  const templateOf = (i: string) => `CASE WHEN ${i} % 100 = 1 THEN '${trade}' ELSE '${iou}' END`;
  const cid = (i: string) => `'00' || lpad(to_hex(${i}), 64, '0')`;
  const argument = (i: string) =>
    `jsonb_build_object('issuer', ${party}, 'owner', ${party}, 'currency', 'USD', 'amount', (${i} % 1000)::text || '.0000000000', 'observers', '[]'::jsonb)`;
  await db.query(`INSERT INTO updates (stream_name, ledger_offset, update_id, kind, record_time, synchronizer_id, command_id, workflow_id, effective_at, element)
    SELECT '${stream}', i, 'u' || i, 'transaction', timestamptz '2026-01-01' + i * interval '1 ms', 'sync::1', 'c' || i, '', timestamptz '2026-01-01' + i * interval '1 ms',
           json_build_object('update', json_build_object('Transaction', json_build_object('value', json_build_object('offset', i))))
      FROM generate_series(1, ${n + archived}) i`);
  await db.query(`INSERT INTO created_events (stream_name, ledger_offset, node_id, contract_id, template_id, package_name, create_argument, contract_key,
                                              signatories, observers, witness_parties, created_at, acs_delta)
    SELECT '${stream}', i, 0, ${cid('i')}, ${templateOf('i')}, 'bench', ${argument('i')}, NULL,
           ARRAY[${party}], ARRAY[]::text[], ARRAY[${party}], timestamptz '2026-01-01' + i * interval '1 ms', true
      FROM generate_series(1, ${n}) i`);
  await db.query(`INSERT INTO archived_events (stream_name, ledger_offset, node_id, contract_id, template_id, package_name, witness_parties)
    SELECT '${stream}', ${n} + k, 0, ${cid('(k * 5)')}, ${templateOf('(k * 5)')}, 'bench', ARRAY[${party}]
      FROM generate_series(1, ${archived}) k`);
  await db.query(`INSERT INTO active_contracts (stream_name, contract_id, template_id, package_name, create_argument, contract_key, signatories, observers,
                                                created_offset, created_at, synchronizer_id, reassignment_counter, origin)
    SELECT '${stream}', ${cid('i')}, ${templateOf('i')}, 'bench', ${argument('i')}, NULL, ARRAY[${party}], ARRAY[]::text[],
           i, timestamptz '2026-01-01' + i * interval '1 ms', 'sync::1', 0, 'update'
      FROM generate_series(1, ${n}) i WHERE i % 5 <> 0`);
  // the interface Holding, in the stream's filter from its start, implemented by Trade: its view of every Trade contract
  await db.query(`INSERT INTO ledger_rx_interface_views (stream_name, ledger_offset, contract_id, interface_id, view_value)
    SELECT '${stream}', i, ${cid('i')}, '${holding}', jsonb_build_object('owner', ${party}, 'amount', (i % 1000)::text || '.0000000000')
      FROM generate_series(1, ${n}) i WHERE i % 100 = 1`);
  await db.query(`INSERT INTO ledger_rx_stream_scopes (stream_name, scope, updated_at)
                  VALUES ('${stream}', '{"parties": null, "templates": [], "interfaces": ["#bench-api:Main:Holding"]}', now())`);
  await db.query(`INSERT INTO ledger_rx_checkpoints (stream_name, ledger_offset, updated_at) VALUES ('${stream}', ${n + archived}, now())
                  ON CONFLICT (stream_name) DO UPDATE SET ledger_offset = excluded.ledger_offset`);
  await db.query('ANALYZE');
}

interface Question {
  readonly name: string;
  readonly fn: (i: number) => readonly [string, readonly unknown[]];
  readonly byHand: (i: number) => readonly [string, readonly unknown[]];
  /** Reads the whole large template: fewer repetitions (`--heavy-repeat`). */
  readonly heavy?: boolean;
}

function questions(n: number): Question[] {
  const at = Math.floor(n / 2);
  const contract = (i: number) => `00${((i * 7919) % n + 1).toString(16).padStart(64, '0')}`;
  const columns = 'contract_id, template_id, create_argument AS payload, created_offset AS created_at_offset, created_at, signatories, observers';
  return [
    {
      name: "active('Trade')",
      fn: () => ["SELECT * FROM active('Trade')", []],
      byHand: () => [`SELECT ${columns} FROM active_contracts WHERE stream_name = $1 AND template_id = $2`, [stream, trade]],
    },
    {
      name: `active('Trade', ${at})`,
      fn: () => ['SELECT * FROM active($1, $2)', ['Trade', at]],
      byHand: () => [
        `SELECT c.contract_id, c.template_id, c.create_argument AS payload, c.ledger_offset AS created_at_offset, c.created_at, c.signatories, c.observers
           FROM created_events c
          WHERE c.stream_name = $1 AND c.template_id = $2 AND c.acs_delta AND c.ledger_offset <= $3
            AND NOT EXISTS (SELECT 1 FROM archived_events a WHERE a.stream_name = $1 AND a.contract_id = c.contract_id AND a.ledger_offset <= $3)`,
        [stream, trade, at],
      ],
    },
    {
      name: "active('Holding') (an interface)",
      fn: () => ["SELECT * FROM active('Holding')", []],
      byHand: () => [
        `SELECT ac.contract_id, ac.template_id, v.view_value AS payload, ac.created_offset AS created_at_offset, ac.created_at, ac.signatories, ac.observers
           FROM ledger_rx_interface_views v
           JOIN active_contracts ac ON ac.stream_name = v.stream_name AND ac.contract_id = v.contract_id AND ac.created_offset = v.ledger_offset
          WHERE v.stream_name = $1 AND v.interface_id = $2`,
        [stream, holding],
      ],
    },
    {
      name: "active('Trade') where amount = 7",
      fn: () => ["SELECT contract_id FROM active('Trade') WHERE payload ->> 'amount' = '7.0000000000'", []],
      byHand: () => [`SELECT contract_id FROM active_contracts WHERE stream_name = $1 AND template_id = $2 AND create_argument ->> 'amount' = '7.0000000000'`, [stream, trade]],
    },
    {
      name: "count(*) of active('Iou')",
      heavy: true,
      fn: () => ["SELECT count(*) FROM active('Iou')", []],
      byHand: () => ['SELECT count(*) FROM active_contracts WHERE stream_name = $1 AND template_id = $2', [stream, iou]],
    },
    {
      name: 'lookup_contract(id)',
      fn: (i) => ['SELECT * FROM lookup_contract($1)', [contract(i)]],
      byHand: (i) => [
        `SELECT c.contract_id, c.template_id, c.create_argument AS payload, c.ledger_offset AS created_at_offset, a.ledger_offset AS archived_at_offset
           FROM created_events c LEFT JOIN archived_events a ON a.stream_name = c.stream_name AND a.contract_id = c.contract_id
          WHERE c.stream_name = $1 AND c.contract_id = $2`,
        [stream, contract(i)],
      ],
    },
  ];
}

async function time(db: pg.Client, [text, values]: readonly [string, readonly unknown[]]): Promise<{ ms: number; rows: number }> {
  const started = performance.now();
  const result = await db.query(text, values as unknown[]);
  return { ms: performance.now() - started, rows: result.rowCount ?? result.rows.length };
}

async function main(): Promise<void> {
  const m = mode();
  const n = numberOption('contracts', m === 'quick' ? 50_000 : 1_000_000);
  const repeat = numberOption('repeat', m === 'quick' ? 10 : 50);
  const heavyRepeat = numberOption('heavy-repeat', m === 'quick' ? 5 : 7);
  const run = startBenchRun();
  const server = await startPostgres({ durable: false });
  if (!server) throw new Error('PostgreSQL is not installed (apt-get install postgresql)');
  const rows: Row[] = [];
  const extra: Record<string, unknown> = {};
  try {
    const sink = await PostgresSink.connect({ url: server.url, streamName: stream });
    await sink.start();
    await sink.close();
    const db = new pg.Client({ connectionString: server.url });
    await db.connect();
    try {
      const loadStarted = performance.now();
      await load(db, n);
      const loadSeconds = (performance.now() - loadStarted) / 1000;
      log(`store-query: loaded ${n.toLocaleString('en-US')} contracts in ${loadSeconds.toFixed(1)} s`);
      extra['loadSeconds'] = loadSeconds;
      if (flag('explain')) {
        for (const q of questions(n)) {
          const [text, values] = q.fn(1);
          const plan = await db.query(`EXPLAIN (ANALYZE, BUFFERS) ${text}`, values as unknown[]);
          log(`store-query: plan of ${q.name}:\n${plan.rows.map((r: Record<string, unknown>) => String(r['QUERY PLAN'])).join('\n')}`);
        }
        if (flag('hold')) {
          log(`store-query: holding the server at ${server.url}; stop with SIGINT`);
          await new Promise((resolve) => process.once('SIGINT', resolve));
        }
      }
      for (const q of questions(n)) {
        const times = q.heavy === true ? Math.min(repeat, heavyRepeat) : repeat;
        try {
          await time(db, q.fn(0));
        } catch (error) {
          log(`store-query: ${q.name}: the function fails: ${(error as Error).message}`);
          extra[q.name] = { error: (error as Error).message };
          continue;
        }
        for (let w = 0; w < (q.heavy === true ? 1 : 3); w++) {
          await time(db, q.fn(w));
          await time(db, q.byHand(w));
        }
        const fnMs: number[] = [];
        const handMs: number[] = [];
        let fnRows = 0;
        let handRows = 0;
        // the function and the hand-written query alternate, so a change of the machine's speed hits both
        for (let i = 0; i < times; i++) {
          const a = await time(db, q.fn(i));
          const b = await time(db, q.byHand(i));
          fnMs.push(a.ms);
          handMs.push(b.ms);
          fnRows = a.rows;
          handRows = b.rows;
        }
        const group = `query store, ${n.toLocaleString('en-US')} contracts: ${q.name}`;
        const p50 = (s: number[]) => quantile(s, 0.5);
        const p99 = (s: number[]) => quantile(s, 0.99);
        rows.push({ group, subject: `SQL function (${fnRows} rows)`, metric: 'ms p50', value: figure([p50(fnMs)]), digits: 2 });
        rows.push({ group, subject: `SQL function (${fnRows} rows)`, metric: 'ms p99', value: figure([p99(fnMs)]), digits: 2 });
        rows.push({ group, subject: `by hand on the tables (${handRows} rows)`, metric: 'ms p50', value: figure([p50(handMs)]), digits: 2 });
        rows.push({ group, subject: `by hand on the tables (${handRows} rows)`, metric: 'ms p99', value: figure([p99(handMs)]), digits: 2 });
        rows.push({ group, subject: 'function / by hand', metric: 'ratio of p50', value: figure([p50(fnMs) / p50(handMs)]), digits: 2 });
        extra[q.name] = { fnMs, handMs, fnRows, handRows };
        log(`store-query: ${q.name}: function p50 ${p50(fnMs).toFixed(2)} ms p99 ${p99(fnMs).toFixed(2)} ms (${fnRows} rows); by hand p50 ${p50(handMs).toFixed(2)} ms p99 ${p99(handMs).toFixed(2)} ms (${handRows} rows)`);
      }
    } finally {
      await db.end();
    }
  } finally {
    server.stop();
  }
  const file = run.finish({
    name: 'store-query',
    question: "the query store's SQL functions on 10^6 contracts against the same questions written by hand on the tables: p50/p99 per query",
    mode: m,
    fixture: { postgres: server.version, contracts: n, archived: Math.floor(n / 5), repeat, heavyRepeat },
    rows,
    extra,
  });
  log(`store-query: wrote ${file}`);
}

await main();
