import pg from 'pg';
import { expect } from 'vitest';
import { newCommandId } from '../../../src/client/index.js';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { eventually } from '../../support/eventually.js';
import { call } from '../../support/sandbox-http.js';

const filtersOf = (parties: readonly string[]) => Object.fromEntries(parties.map((p) => [p, { cumulative: [] }]));

/** The participant's active contract ids for `parties` at `offset`, read as raw HTTP, sorted. */
export async function participantActive(sandbox: Sandbox, parties: readonly string[], offset: number): Promise<string[]> {
  const r = await call(sandbox.url, 'POST', '/v2/state/active-contracts', { body: { activeAtOffset: offset, eventFormat: { filtersByParty: filtersOf(parties), verbose: false } } });
  expect(r.status, r.text.slice(0, 300)).toBe(200);
  return (r.json as { contractEntry: { JsActiveContract?: { createdEvent: { contractId: string } } } }[])
    .map((e) => e.contractEntry.JsActiveContract?.createdEvent.contractId)
    .filter((id): id is string => id !== undefined)
    .sort();
}

/** The contracts created in each transaction of `parties` in `(after, upTo]`, read as raw HTTP: `offset contract-id` lines, in order. */
export async function participantCreates(sandbox: Sandbox, parties: readonly string[], after: number, upTo: number): Promise<string[]> {
  const r = await call(sandbox.url, 'POST', '/v2/updates', {
    body: {
      beginExclusive: after,
      endInclusive: upTo,
      updateFormat: { includeTransactions: { eventFormat: { filtersByParty: filtersOf(parties), verbose: false }, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' } },
    },
  });
  expect(r.status, r.text.slice(0, 300)).toBe(200);
  type Element = { update: { Transaction?: { value: { offset: number; events: { CreatedEvent?: { contractId: string } }[] } } } };
  return (r.json as Element[]).flatMap((e) => {
    const t = e.update.Transaction?.value;
    return t === undefined ? [] : t.events.flatMap((ev) => (ev.CreatedEvent === undefined ? [] : [`${t.offset} ${ev.CreatedEvent.contractId}`]));
  });
}

/** Submits `n` Iou creates of `party` (issuer and owner) to the sandbox, one transaction each. */
export async function createIous(sandbox: Sandbox, party: string, n: number): Promise<void> {
  const iou = { CreateCommand: { templateId: '#ledger-rx-demo:Iou:Iou', createArguments: { issuer: party, owner: party, currency: 'CHF', amount: '1.0000000000', observers: [] } } };
  for (let i = 0; i < n; i++) await sandbox.submit({ commands: [iou], commandId: newCommandId('iou'), actAs: [party] });
}

/** A fresh database `name` on the server of `pgUrl`: its URL, a pool on it, and the drop that ends both. */
export async function freshDatabase(pgUrl: string, name: string): Promise<{ readonly url: string; readonly pool: pg.Pool; drop(): Promise<void> }> {
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(pgUrl);
  url.pathname = `/${name}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: 2 });
  pool.on('error', () => undefined); // an idle connection ended by the DROP DATABASE at the end
  return {
    url: url.toString(),
    pool,
    drop: async () => {
      await pool.end();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

/**
 * Resolves once a session on `database` is idle inside a transaction after inserting into `active_contracts`: a
 * backfill (or snapshot) transaction that stored rows and waits for more of the snapshot (held back by a proxy).
 */
export async function backfillHoldingRows(pool: pg.Pool, database: string, signal: AbortSignal): Promise<void> {
  await eventually(
    async () =>
      Number(
        (
          await pool.query<{ n: string }>(
            `SELECT count(*) AS n FROM pg_stat_activity WHERE datname = $1 AND state = 'idle in transaction' AND query LIKE 'INSERT INTO active_contracts%'`,
            [database],
          )
        ).rows[0]?.n,
      ) > 0 || undefined,
    'the backfill transaction',
    { signal },
  );
}
