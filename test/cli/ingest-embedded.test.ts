import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readIngestOptions } from '../../src/cli/ingest/read-ingest-options.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { migrations } from '../../src/sinks/postgres/migrations.js';
import { openEmbeddedPostgres } from '../../src/sinks/postgres/open-embedded-postgres.js';
import { runMigrations } from '../../src/sinks/postgres/run-migrations.js';
import { startFaultProxy } from '../support/fault-proxy.js';
import { visibleAcsDeltaOffsets } from './support/ledger-truth.js';
import { rawActiveSet } from './support/raw-active-set.js';
import { eventually } from '../support/eventually.js';
import { runCli, startCli } from './support/run-cli.js';
import { runInProcess } from './support/run-in-process.js';

// `ingest` with no set-up: the embedded PostgreSQL (PGlite) in --data-dir, and `sql` to look at it. The
// server path is tested by ingest-e2e.test.ts with the same sink, migrations and transactions. The commands
// run in process (the program of `createProgram`, the same flags); real processes where a process is the
// point: one smoke run of `ingest` and of `sql` (the built entry, its exit code and output), the runs
// killed with -9, and a second process refused by the directory's lock.

/** The offsets stored in a data directory, read with `ledger-rx sql` (NDJSON rows). */
async function storedOffsets(dataDir: string): Promise<number[]> {
  const result = await runInProcess(['sql', '--data-dir', dataDir, '--format', 'ndjson', "select ledger_offset from updates where stream_name = 'default' order by ledger_offset"]);
  expect(result.code, result.stderr).toBe(0);
  return result.stdout
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => Number((JSON.parse(l) as { ledger_offset: unknown }).ledger_offset));
}

describe('ingest into the embedded PostgreSQL, and sql', () => {
  let dir: string;
  let template: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ledger-rx-embedded-'));
    // PGlite's first start creates the cluster (initdb), which is slow: do it once, copy it per test
    template = join(dir, 'template');
    await (await openEmbeddedPostgres(template)).close();
  }, 120_000);
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  const fresh = async (name: string) => {
    const target = join(dir, name);
    await cp(template, target, { recursive: true });
    return target;
  };

  it('stores the ledger exactly as a server does, and sql prints it as a table or NDJSON', async () => {
    const sandbox = await startSandbox({ seed: 60 });
    try {
      const data = await fresh('plain');
      // a directory of an older version (schema 2: the element as jsonb) with a row of another stream: the ingest upgrades it
      const old = await openEmbeddedPostgres(data);
      await runMigrations(old.database, 'public', migrations.filter((m) => m.version <= 2));
      await old.database.query(`INSERT INTO updates (stream_name, ledger_offset, update_id, kind, element) VALUES ('old', 1, 'u-old', 'unknown', '{"update": {"X": {"value": {"updateId": "u-old"}}}}')`);
      await old.close();
      // the smoke runs of `ingest` and `sql`: the built entry as a process
      const ingest = await runCli(['ingest', '--url', sandbox.url, '--to', 'end', '--data-dir', data, '--stats', '--log-level', 'warn'], { timeoutMs: 60_000 });
      expect(ingest.code, ingest.stderr).toBe(0);
      const truth = visibleAcsDeltaOffsets(sandbox);
      expect(JSON.parse(ingest.stderr.trim().split('\n').at(-1) as string)).toMatchObject({ count: truth.length, lastOffset: truth.at(-1) });
      expect(await storedOffsets(data)).toEqual(truth);
      const table = await runCli(['sql', '--data-dir', data, "select count(*) as updates, max(ledger_offset) as last from updates where stream_name = 'default'"], { timeoutMs: 60_000 });
      expect(table.code, table.stderr).toBe(0);
      expect(table.stdout.split('\n')).toEqual([
        expect.stringMatching(/^updates │ last\s*$/),
        expect.stringMatching(/^─+┼─+$/),
        expect.stringMatching(new RegExp(`^ *${truth.length} │ +${truth.at(-1)}$`)),
        '(1 row)',
        '',
      ]);
      // schema 3 stores the element as json: as sent, and read with the json operators (the old row too)
      const ids = await runInProcess([
        'sql',
        '--data-dir',
        data,
        '--format',
        'ndjson',
        `select stream_name as s, element #>> '{update,Transaction,value,updateId}' = update_id as tx, element::jsonb->'update' ? 'X' as x from updates order by stream_name <> 'old', ledger_offset limit 2`,
      ]);
      expect(ids.code, ids.stderr).toBe(0);
      expect(ids.stdout.trim().split('\n').map((l) => JSON.parse(l) as unknown)).toEqual([{ s: 'old', tx: null, x: true }, { s: 'default', tx: true, x: false }]);
      const bad = await runInProcess(['sql', '--data-dir', data, 'select * from no_such_table']);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('no_such_table');
    } finally {
      await sandbox.close();
    }
  }, 150_000);

  it('is exactly-once across kill -9: a restart takes the directory over and ends with the rows of the ledger', async () => {
    const sandbox = await startSandbox({ seed: 40, generate: 80 });
    try {
      const data = await fresh('killed');
      const args = ['ingest', '--url', sandbox.url, '--data-dir', data, '--batch', '25', '--batch-ms', '30', '--log-level', 'debug', '--lock-wait-ms', '0'];
      const cli = startCli(args);
      // batches are being committed (not a fixed delay: under load the start-up alone can outlast one)
      await eventually(() => (cli.stderr().split('"msg":"batch committed"').length > 2 ? true : undefined), 'two committed batches', { intervalMs: 50 });
      // the directory serves one process: a second one is refused at once (exit 1), naming the holder
      const busy = await runCli(['sql', '--data-dir', data, 'select 1'], { timeoutMs: 60_000 });
      expect(busy.code).toBe(1);
      expect(busy.stderr).toContain(`in use by another ledger-rx process (pid ${cli.child.pid})`);
      cli.child.kill('SIGKILL');
      expect((await cli.exited).signal).toBe('SIGKILL');
      expect((await readFile(join(data, 'ledger-rx.lock'), 'utf8')).trim()).toBe(String(cli.child.pid)); // left behind

      sandbox.stopWorkload();
      const end = sandbox.ledgerEnd();
      const restart = await runInProcess([...args, '--to', 'end']);
      expect(restart.code, restart.stderr).toBe(0);
      expect(restart.stderr).toContain('resuming after the stored position');
      expect(await storedOffsets(data)).toEqual(visibleAcsDeltaOffsets(sandbox, end)); // no gap, no duplicate
    } finally {
      await sandbox.close();
    }
  }, 240_000);

  it('--from acs --at OFFSET: a kill -9 during the snapshot leaves nothing; the restart stores the active set at that offset, then the updates after it', async () => {
    const sandbox = await startSandbox({ seed: 200, maxListElements: 20_000 });
    const proxy = await startFaultProxy({ target: sandbox.url });
    try {
      const data = await fresh('from-acs');
      const at = (visibleAcsDeltaOffsets(sandbox)[120] as number) + 1; // between two updates
      const args = ['ingest', '--url', proxy.url, '--data-dir', data, '--from', 'acs', '--at', String(at), '--batch', '20', '--log-level', 'info', '--lock-wait-ms', '0'];
      // the snapshot stalls half-way, after two chunks were inserted in the open transaction
      const size = (await rawActiveSet(sandbox.url, at)).active.length;
      expect(size).toBeGreaterThanOrEqual(80);
      proxy.schedule([{ kind: 'ws-stall', afterFrames: Math.floor(size / 2) }], { match: (_m, path) => path === '/v2/state/active-contracts' });
      const killed = startCli(args);
      await eventually(() => (killed.stderr().includes('taking the active contracts') && proxy.applied() === 1 ? true : undefined), 'the snapshot to start', { intervalMs: 50 });
      await new Promise((r) => setTimeout(r, 500));
      killed.child.kill('SIGKILL');
      expect((await killed.exited).signal).toBe('SIGKILL');
      expect(killed.stderr()).not.toContain('active contracts stored');

      // the killed snapshot committed nothing: the restart finds a new stream
      proxy.schedule([]);
      const end = sandbox.ledgerEnd();
      const restart = await runInProcess([...args, '--to', 'end']);
      expect(restart.code, restart.stderr).toBe(0);
      expect(restart.stderr).toContain('"msg":"new stream"');
      expect(restart.stderr).toContain('active contracts stored');
      const stored = await runInProcess([
        'sql',
        '--data-dir',
        data,
        '--format',
        'ndjson',
        "select 'u' as k, ledger_offset::text as v from updates union all select 'c', contract_id from active_contracts union all select 's', snapshot_offset::text from ledger_rx_snapshots",
      ]);
      expect(stored.code, stored.stderr).toBe(0);
      const rows = stored.stdout.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as { k: string; v: string });
      const of = (k: string) => rows.filter((r) => r.k === k).map((r) => r.v);
      expect(of('s')).toEqual([String(at)]);
      expect(of('c').sort()).toEqual((await rawActiveSet(sandbox.url, end)).active);
      expect(of('u').map(Number).sort((a, b) => a - b)).toEqual(visibleAcsDeltaOffsets(sandbox, end).filter((o) => o > at));
    } finally {
      await proxy.close();
      await sandbox.close();
    }
  }, 240_000);

  it('chooses the store from the flags: --pg, else LEDGER_RX_PG_URL, else --data-dir (default ./ledger-rx-data)', async () => {
    const base = { sandbox: true };
    expect(readIngestOptions(base)).toMatchObject({ pg: undefined, dataDir: './ledger-rx-data' });
    expect(readIngestOptions(base, { LEDGER_RX_PG_URL: 'postgres://env' })).toMatchObject({ pg: 'postgres://env', dataDir: undefined });
    expect(readIngestOptions({ ...base, dataDir: 'here' }, { LEDGER_RX_PG_URL: 'postgres://env' })).toMatchObject({ pg: undefined, dataDir: 'here' });
    expect(readIngestOptions({ ...base, pg: 'postgres://flag' })).toMatchObject({ pg: 'postgres://flag', dataDir: undefined });
    expect(() => readIngestOptions({ ...base, pg: 'postgres://flag', dataDir: 'here' })).toThrow(/not both/);
    const missing = await runInProcess(['sql', '--data-dir', join(dir, 'nothing-here'), 'select 1']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('run `ledger-rx ingest` first');
  });
});
