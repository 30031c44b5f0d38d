import pg from 'pg';
import { bufferCount, concatMap, lastValueFrom } from 'rxjs';
import { createLedgerClient, tailUpdates, updateFormat, updateOffset } from 'ledger-rx';
import { PostgresCheckpointStore } from 'ledger-rx/postgres';
import { startSandbox } from 'ledger-rx/sandbox';

const sandbox = await startSandbox({ seed: 40 });
const client = createLedgerClient({ baseUrl: sandbox.url });
const pool = new pg.Pool({ connectionString: process.env['DATABASE_URL'] }); // e.g. postgres://localhost/ledger
await pool.query('CREATE TABLE IF NOT EXISTS ious (offset_ bigint PRIMARY KEY, update_id text NOT NULL)');

const store = await PostgresCheckpointStore.open({ pool, streamName: 'ious' });
const begin = (await store.load())?.offset ?? 0; // where the last committed batch ended
const format = updateFormat().transactions((t) => t.parties(sandbox.partyId('Alice')).template('#ledger-rx-demo:Iou:Iou')).build();

await lastValueFrom(
  tailUpdates(client, { beginExclusive: begin, endInclusive: sandbox.ledgerEnd(), updateFormat: format }).pipe(
    bufferCount(10),
    concatMap(async (batch) => {
      const last = batch.at(-1);
      const offset = last === undefined ? undefined : updateOffset(last);
      if (offset === undefined) return;
      const checkpointOfLastElement = { offset, synchronizerTimes: [], updatedAt: new Date().toISOString() };
      // the rows and the offset commit together: a batch already committed (before a crash) is skipped
      const outcome = await store.transaction(checkpointOfLastElement, async (db) => {
        for (const element of batch) {
          if ('Transaction' in element.update) {
            const { offset, updateId } = element.update.Transaction.value;
            await db.query('INSERT INTO ious (offset_, update_id) VALUES ($1, $2)', [offset, updateId]);
          }
        }
      });
      console.log(`batch up to offset ${offset}: ${outcome.applied ? 'committed' : 'already there'}`);
    }),
  ),
  { defaultValue: undefined },
);
console.log(`${(await pool.query('SELECT count(*) AS n FROM ious')).rows[0].n} rows in ious`);
await Promise.all([store.close(), client.close()]);
await pool.end();
await sandbox.close();
