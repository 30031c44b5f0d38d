import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { visibleAcsDeltaOffsets } from './support/ledger-truth.js';
import { runInProcess } from './support/run-in-process.js';

const pgUrl = inject('pgUrl');
const unique = `${process.pid}_${Date.now() % 100000}`;

describe.runIf(pgUrl)('ledger-rx ingest validates what it ingests', () => {
  let db: pg.Pool;
  beforeAll(() => {
    db = new pg.Pool({ connectionString: pgUrl, max: 2 });
  });
  afterAll(() => db.end());

  it('stops with exit 3 and SCHEMA_MISMATCH on a malformed element, and writes no row for it', async () => {
    const sandbox = await startSandbox({ seed: 80 });
    try {
      const schema = `ing_validate_${unique}`;
      const truth = visibleAcsDeltaOffsets(sandbox, sandbox.ledgerEnd());
      sandbox.injectFault({ kind: 'schema-violation', afterElements: 5 });
      const run = await runInProcess(['ingest', '--pg', pgUrl as string, '--schema', schema, '--url', sandbox.url, '--to', 'end', '--batch', '3', '--log-level', 'warn']);
      expect(run.code, run.stderr).toBe(3);
      expect(run.stderr).toContain('SCHEMA_MISMATCH');
      const rows = await db.query<{ o: string }>(`SELECT ledger_offset AS o FROM ${schema}.updates ORDER BY 1`);
      const ingested = rows.rows.map((r) => Number(r.o));
      // Only whole, valid elements before the fault, and a prefix of the ledger: nothing invented.
      expect(truth.slice(0, ingested.length)).toEqual(ingested);
      expect(ingested.length).toBeLessThanOrEqual(5);

      // Restarted once the server is healthy again, it completes the ledger exactly once.
      const again = await runInProcess(['ingest', '--pg', pgUrl as string, '--schema', schema, '--url', sandbox.url, '--to', 'end', '--log-level', 'warn']);
      expect(again.code, again.stderr).toBe(0);
      const all = await db.query<{ o: string }>(`SELECT ledger_offset AS o FROM ${schema}.updates ORDER BY 1`);
      expect(all.rows.map((r) => Number(r.o))).toEqual(truth);
    } finally {
      await sandbox.close();
    }
  });
});
