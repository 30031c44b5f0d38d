import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Decoder } from '@toondepauw/node-zstd';
import { describe, expect, it } from 'vitest';
import { newCommandId } from '../../src/client/index.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { activeContractIds, visibleAcsDeltaOffsets } from './support/ledger-truth.js';
import { expectSummary } from './support/expect-summary.js';
import { runCli, startCli } from './support/run-cli.js';
import { runInProcess } from './support/run-in-process.js';
import { duckQuery, tempDirs } from '../sinks/support/export-kit.js';

const newDir = tempDirs('ledger-rx-export-e2e-');

const query = duckQuery;

const microsOf = (iso: string) => {
  const [whole, frac = ''] = iso.replace(/Z$/, '').split('.');
  return BigInt(Date.parse(`${whole}Z`)) * 1000n + BigInt((frac + '000000').slice(0, 6));
};

/** The `events` rows an any-party ACS-delta read of the sandbox's log gives, as `offset/node/kind/contract`, from its own log. */
function expectedEvents(sandbox: Sandbox, end: number): string[] {
  const rows: string[] = [];
  for (const u of sandbox.updates({ endInclusive: end })) {
    if (u.kind !== 'Transaction') continue;
    for (const e of u.events) {
      if (!e.acsDelta) continue;
      rows.push(`${u.offset}/${e.nodeId}/${e.kind === 'Created' ? 'created' : 'archived'}/${e.contractId}`);
    }
  }
  return rows;
}

/** Checks the Parquet export in `dir` against the sandbox's log up to `end`: every update and event once, record times to the µs. */
async function expectExportEqualsLedger(dir: string, sandbox: Sandbox, end: number): Promise<void> {
  const updates = await query(
    `SELECT "offset", update_id, epoch_us(record_time) AS us, strftime(record_date, '%Y-%m-%d') AS d, command_id FROM read_parquet('${dir}/updates/**/*.parquet', hive_partitioning = true) ORDER BY "offset"`,
  );
  expect(updates.map((r) => Number(r['offset']))).toEqual(visibleAcsDeltaOffsets(sandbox, end));
  const truth = new Map(sandbox.updates({ endInclusive: end }).map((u) => [u.offset, u]));
  for (const r of updates) {
    const u = truth.get(Number(r['offset']));
    expect([r['update_id'], r['us'], r['d']]).toEqual([u?.updateId, microsOf(u?.recordTime as string), u?.recordTime.slice(0, 10)]);
  }
  const events = await query(`SELECT "offset", node_id, kind, contract_id FROM read_parquet('${dir}/events/**/*.parquet', hive_partitioning = true) ORDER BY "offset", node_id`);
  expect(events.map((r) => `${r['offset']}/${r['node_id']}/${r['kind']}/${r['contract_id']}`)).toEqual(expectedEvents(sandbox, end));
  const leftovers = (readdirSync(dir, { recursive: true }) as string[]).filter((f) => f.includes('.tmp-'));
  expect(leftovers).toEqual([]);
}

/** Creates an Iou with `amount` (through the sandbox's own submission). */
async function createIou(sandbox: Sandbox, amount: string): Promise<void> {
  const party = sandbox.partyId('Alice');
  const createArguments = { issuer: party, owner: party, currency: 'CHF', amount, observers: [] };
  await sandbox.submit({ commands: [{ CreateCommand: { templateId: '#ledger-rx-demo:Iou:Iou', createArguments } }], commandId: newCommandId('exp'), actAs: [party] });
}

// The runs are in process (the program of `createProgram`, the same flags), except the smoke run of the
// built entry (the NDJSON export of the first test) and the runs killed with -9.
describe('ledger-rx export (read back with DuckDB)', () => {
  it('exports --to end: the rows equal the ledger; Numeric exact; ndjson-zstd holds the lines tail prints, byte for byte', async () => {
    const sandbox = await startSandbox({ seed: 400 });
    try {
      await createIou(sandbox, '12345678901234567890.1234567891');
      const end = sandbox.ledgerEnd();
      const parquet = newDir();
      const ndjson = newDir();
      const [a, b, tail] = await Promise.all([
        runInProcess(['export', '--out', parquet, '--url', sandbox.url, '--to', 'end', '--batch', '97', '--stats', '--log-level', 'warn']),
        runCli(['export', '--out', ndjson, '--format', 'ndjson-zstd', '--url', sandbox.url, '--to', 'end', '--batch', '150', '--log-level', 'info'], { timeoutMs: 60_000 }),
        runInProcess(['tail', '--url', sandbox.url, '--to', 'end', '--log-level', 'warn']),
      ]);
      expect(a.code, a.stderr).toBe(0);
      expect(b.code, b.stderr).toBe(0);
      expect(tail.code, tail.stderr).toBe(0);
      await expectExportEqualsLedger(parquet, sandbox, end);
      const stats = JSON.parse(a.stderr.trim().split('\n').at(-1) as string);
      expect(stats.count).toBe(visibleAcsDeltaOffsets(sandbox, end).length);
      // files of at most 97 updates, each a contiguous range named by it: one per batch of 97, and a batch whose
      // updates have two record dates (a ledger that spans midnight UTC) is one file per date
      const names = (readdirSync(parquet, { recursive: true }) as string[]).filter((f) => f.startsWith('updates/') && f.endsWith('.parquet'));
      const dates = (await query(`SELECT strftime(record_date, '%Y-%m-%d') AS d FROM read_parquet('${parquet}/updates/**/*.parquet', hive_partitioning = true) ORDER BY "offset"`)).map((r) => String(r['d']));
      expect(dates.length).toBe(stats.count);
      const dateRuns = dates.filter((d, i) => i % 97 === 0 || d !== dates[i - 1]).length;
      expect(names.length).toBe(dateRuns);
      const amounts = await query(
        `SELECT payload->>'amount' AS text, CAST(payload->>'amount' AS DECIMAL(38,10))::VARCHAR AS dec FROM read_parquet('${parquet}/events/**/*.parquet') WHERE "offset" = ${end} AND kind = 'created'`,
      );
      expect(amounts).toEqual([{ text: '12345678901234567890.1234567891', dec: '12345678901234567890.1234567891' }]);

      const files = (readdirSync(ndjson, { recursive: true }) as string[]).filter((f) => f.endsWith('.ndjson.zst')).sort();
      const lines = files.flatMap((f) => new Decoder().decodeSync(readFileSync(join(ndjson, f))).toString().split('\n').slice(0, -1));
      const tailLines = tail.stdout.split('\n').filter((l) => l.includes('"Transaction"'));
      expect(lines).toEqual(tailLines);
      // without --stats, the last log line says what was exported: every update, its first and last offsets
      const offsets = visibleAcsDeltaOffsets(sandbox, end);
      expectSummary(b.stderr, 'exported', { count: offsets.length, firstOffset: offsets[0] as number, lastOffset: offsets.at(-1) as number });
    } finally {
      await sandbox.close();
    }
  }, 120_000);

  it('kill -9 while writing and between the renames, three times, then a restart: every row of the ledger once', async () => {
    const sandbox = await startSandbox({ seed: 1_500 });
    try {
      const dir = newDir();
      const end = sandbox.ledgerEnd();
      const args = ['export', '--out', dir, '--url', sandbox.url, '--to', String(end), '--batch', '40', '--log-level', 'debug'];
      // kill after the n-th file of a run: odd n — an updates file was renamed, its events file not yet; even n — the next range is being written
      for (const n of [1, 4, 3]) {
        const cli = startCli(args);
        const written = () => cli.stderr().split('\n').filter((l) => l.includes('"msg":"file written"')).length;
        await new Promise<void>((resolve, reject) => {
          const check = () => (written() >= n ? resolve() : cli.child.exitCode !== null ? reject(new Error(`exited before ${n} files: ${cli.stderr()}`)) : setImmediate(check));
          cli.child.stderr.on('data', check);
          check();
        });
        cli.child.kill('SIGKILL');
        expect((await cli.exited).signal).toBe('SIGKILL');
      }
      const restart = await runInProcess(args);
      expect(restart.code, restart.stderr).toBe(0);
      expect(restart.stderr).toContain('resuming after the stored position');
      await expectExportEqualsLedger(dir, sandbox, end);
    } finally {
      await sandbox.close();
    }
  }, 180_000);

  it('--from acs: the active contracts at the ledger end as active_contracts, then the updates after it', async () => {
    const sandbox = await startSandbox({ seed: 200 });
    try {
      const dir = newDir();
      const at = sandbox.ledgerEnd();
      const first = await runInProcess(['export', '--out', dir, '--url', sandbox.url, '--from', 'acs', '--to', 'end', '--log-level', 'warn']);
      expect(first.code, first.stderr).toBe(0);
      const contracts = await query(`SELECT contract_id, "offset" FROM read_parquet('${dir}/active_contracts/*.parquet') ORDER BY contract_id`);
      expect(contracts.map((r) => r['contract_id'])).toEqual(activeContractIds(sandbox, at));
      expect(new Set(contracts.map((r) => r['offset']))).toEqual(new Set([BigInt(at)]));
      await createIou(sandbox, '1.5000000000');
      const second = await runInProcess(['export', '--out', dir, '--url', sandbox.url, '--to', 'end', '--log-level', 'warn']);
      expect(second.code, second.stderr).toBe(0);
      const updates = await query(`SELECT "offset" FROM read_parquet('${dir}/updates/**/*.parquet')`);
      expect(updates.map((r) => Number(r['offset']))).toEqual(visibleAcsDeltaOffsets(sandbox).filter((o) => o > at));
    } finally {
      await sandbox.close();
    }
  }, 120_000);

  it('--dar: a typed table per template of the DAR, a file for every range (the sandbox has no DAR templates: 0 rows); a restart with other --dar is refused', async () => {
    const sandbox = await startSandbox({ seed: 300 });
    try {
      const dir = newDir();
      const dar = '../shared/dars/richtypes.dar';
      const first = await runInProcess(['export', '--out', dir, '--url', sandbox.url, '--to', 'end', '--batch', '50', '--dar', dar, '--log-level', 'warn']);
      expect(first.code, first.stderr).toBe(0);
      const names = (table: string) => (readdirSync(join(dir, table), { recursive: true }) as string[]).filter((f) => f.endsWith('.parquet')).sort();
      const ranges = names('updates');
      expect(ranges.length).toBeGreaterThan(1);
      for (const table of ['template__richtypes__RichTypes__Marker', 'template__richtypes__RichTypes__RichRecord']) {
        expect(names(table)).toEqual(ranges);
        expect(await query(`SELECT count(*) AS n FROM read_parquet('${dir}/${table}/**/*.parquet')`)).toEqual([{ n: 0n }]);
      }
      const types = await query(`DESCRIBE SELECT amount, "asOf", "observedAt" FROM read_parquet('${dir}/template__richtypes__RichTypes__RichRecord/**/*.parquet')`);
      expect(types.map((r) => r['column_type'])).toEqual(['DECIMAL(38,10)', 'DATE', 'TIMESTAMP WITH TIME ZONE']);
      await expectExportEqualsLedger(dir, sandbox, sandbox.ledgerEnd());
      const without = await runInProcess(['export', '--out', dir, '--url', sandbox.url, '--to', 'end', '--log-level', 'warn']);
      expect(without.code).toBe(1);
      expect(without.stderr).toMatch(/the typed tables are fixed when an export starts/);
      const broken = await runInProcess(['export', '--out', newDir(), '--url', sandbox.url, '--to', 'end', '--dar', join(dir, 'missing.dar'), '--log-level', 'warn']);
      expect(broken.code).toBe(1);
      expect(broken.stderr).toMatch(/missing\.dar/);
    } finally {
      await sandbox.close();
    }
  }, 120_000);
});
