import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { newCommandId } from '../../src/client/index.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { openEmbeddedPostgres } from '../../src/sinks/postgres/open-embedded-postgres.js';
import { runInProcess } from './support/run-in-process.js';

// A store knows whose ledger it holds: `ingest` resumes only against the ledger it was filled from
// (docs/query-store.md, checkSameLedger).

async function checkpointOf(dir: string): Promise<number | undefined> {
  const db = await openEmbeddedPostgres(dir, { lockWaitMs: 0 });
  try {
    const rows = (await db.database.query<{ o: unknown }>(`SELECT ledger_offset AS o FROM ledger_rx_checkpoints WHERE stream_name = 'default'`)).rows;
    return rows[0] === undefined ? undefined : Number(rows[0].o);
  } finally {
    await db.close();
  }
}

describe('ingest into a store filled from another ledger', () => {
  it('is refused (exit 1, nothing read) when the stored checkpoint is after the participant\'s end or its last update is not the participant\'s; the same ledger resumes', async () => {
    const first = await startSandbox({ seed: 80 });
    const shorter = await startSandbox({ seed: 30 });
    const longer = await startSandbox({ seed: 160, randomSeed: 7 });
    const dir = await mkdtemp(join(tmpdir(), 'ledger-rx-same-'));
    try {
      const ingest = (url: string) => runInProcess(['ingest', '--url', url, '--data-dir', dir, '--to', 'end', '--log-level', 'warn', '--lock-wait-ms', '0']);
      const filled = await ingest(first.url);
      expect(filled.code, filled.stderr).toBe(0);
      const stored = (await checkpointOf(dir)) as number;
      expect(stored).toBeGreaterThan(shorter.ledgerEnd());

      const behind = await ingest(shorter.url);
      expect(behind.code, behind.stderr).toBe(1);
      expect(behind.stderr).toContain(`the store's stream 'default' is at offset ${stored}, after the participant's ledger end (${shorter.ledgerEnd()}): the store was filled from another ledger`);
      expect(await checkpointOf(dir)).toBe(stored);

      const other = await ingest(longer.url);
      expect(other.code, other.stderr).toBe(1);
      expect(other.stderr).toMatch(/holds update \S+ at offset \d+, but the participant's update at that offset is \S+.*: the store was filled from another ledger/);
      expect(await checkpointOf(dir)).toBe(stored);

      // the ledger it was filled from, moved on: resumes
      const alice = first.partyId('Alice');
      await first.submit({
        commands: [{ CreateCommand: { templateId: '#ledger-rx-demo:Iou:Iou', createArguments: { issuer: alice, owner: alice, currency: 'CHF', amount: '1.0000000000', observers: [] } } }],
        commandId: newCommandId('same'),
        actAs: [alice],
      });
      const resumed = await ingest(first.url);
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(await checkpointOf(dir)).toBeGreaterThan(stored);
    } finally {
      await Promise.all([first.close(), shorter.close(), longer.close()]);
      await rm(dir, { recursive: true, force: true });
    }
  }, 240_000);
});
