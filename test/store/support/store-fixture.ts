import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { expect } from 'vitest';
import { pgSqlDatabase } from '../../../src/checkpoints/pg-sql-database.js';
import { newCommandId } from '../../../src/client/index.js';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { openEmbeddedPostgres } from '../../../src/sinks/postgres/open-embedded-postgres.js';
import { call } from '../../support/sandbox-http.js';
import { runInProcess } from '../../cli/support/run-in-process.js';

/** A store `ingest` filled, whichever kind: the flags that name it, and a way to query it from the test. */
export interface StoreUnderTest {
  readonly kind: 'server' | 'embedded';
  /** `--pg URL --schema S` or `--data-dir DIR`. */
  readonly flags: readonly string[];
  /**
   * Runs one statement (parameters allowed) in a transaction that reads `stream` (`ledger_rx.stream`, default
   * `default`; `null` leaves it unset) with `settings` (`set_config(name, value, true)` each); bigint columns come back
   * as whatever the driver gives.
   */
  query<R = Record<string, unknown>>(text: string, values?: readonly unknown[], stream?: string | null, settings?: Readonly<Record<string, string>>): Promise<R[]>;
  /** Closes the test's connection (an embedded store serves one process at a time: close before the CLI opens it). */
  release(): Promise<void>;
  dispose(): Promise<void>;
}

/** A fresh schema on the PostgreSQL server of `url`. */
export function serverStore(url: string, schema: string): StoreUnderTest {
  let pool: pg.Pool | undefined;
  return {
    kind: 'server',
    flags: ['--pg', url, '--schema', schema],
    query: async <R>(text: string, values?: readonly unknown[], stream: string | null = 'default', settings: Readonly<Record<string, string>> = {}) => {
      pool ??= new pg.Pool({ connectionString: url, max: 2, options: `-c search_path=${schema}` });
      return (await pgSqlDatabase(pool).transaction(async (tx) => {
        if (stream !== null) await tx.query(`SELECT set_config('ledger_rx.stream', $1, true)`, [stream]);
        for (const [name, value] of Object.entries(settings)) await tx.query('SELECT set_config($1, $2, true)', [name, value]);
        return tx.query<R>(text, values);
      })).rows;
    },
    release: async () => {
      await pool?.end();
      pool = undefined;
    },
    dispose: async () => {
      await pool?.end();
      pool = undefined;
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin.end();
    },
  };
}

/** A fresh embedded (PGlite) store in a temporary directory. */
export async function embeddedStore(): Promise<StoreUnderTest> {
  const dir = await mkdtemp(join(tmpdir(), 'ledger-rx-store-'));
  let open: Awaited<ReturnType<typeof openEmbeddedPostgres>> | undefined;
  return {
    kind: 'embedded',
    flags: ['--data-dir', dir],
    query: async <R>(text: string, values?: readonly unknown[], stream: string | null = 'default', settings: Readonly<Record<string, string>> = {}) => {
      open ??= await openEmbeddedPostgres(dir, { lockWaitMs: 0 });
      return (await open.database.transaction(async (tx) => {
        if (stream !== null) await tx.query(`SELECT set_config('ledger_rx.stream', $1, true)`, [stream]);
        for (const [name, value] of Object.entries(settings)) await tx.query('SELECT set_config($1, $2, true)', [name, value]);
        return tx.query<R>(text, values);
      })).rows;
    },
    release: async () => {
      await open?.close();
      open = undefined;
    },
    dispose: async () => {
      await open?.close();
      open = undefined;
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * `ledger-rx ingest --to end` of the sandbox into `store` (any party, reassignments included), run in process;
 * expects exit 0 and resolves with what it wrote on stderr.
 */
export async function ingestToEnd(sandbox: Sandbox, store: StoreUnderTest, extra: readonly string[] = []): Promise<string> {
  await store.release();
  const result = await runInProcess(['ingest', '--url', sandbox.url, ...store.flags, '--reassignments', '--to', 'end', '--batch', '25', '--log-level', 'warn', ...extra]);
  expect(result.code, result.stderr).toBe(0);
  return result.stderr;
}

/** One (un)assignment submitted as raw HTTP; resolves with its reassignment id. */
export async function reassign(sandbox: Sandbox, party: string, kind: 'UnassignCommand' | 'AssignCommand', value: Record<string, string>): Promise<string> {
  const r = await call(sandbox.url, 'POST', '/v2/commands/submit-and-wait-for-reassignment', {
    body: {
      reassignmentCommands: { userId: 'participant_admin', commandId: newCommandId('r'), submitter: party, commands: [{ command: { [kind]: { value } } }] },
      eventFormat: { filtersByParty: { [party]: { cumulative: [] } }, verbose: false },
    },
  });
  expect(r.status, r.text).toBe(200);
  const events = (r.json as { reassignment: { events: Record<string, { value?: { reassignmentId: string }; reassignmentId?: string }>[] } }).reassignment.events;
  const event = Object.values(events[0] ?? {})[0];
  return (event?.value?.reassignmentId ?? event?.reassignmentId) as string;
}

/** The participant's active contracts (any party) at `offset` as `contract id → template id`, read as raw HTTP. */
export async function participantActiveAt(sandbox: Sandbox, offset: number): Promise<Map<string, string>> {
  const r = await call(sandbox.url, 'POST', '/v2/state/active-contracts', {
    body: { activeAtOffset: offset, eventFormat: { filtersForAnyParty: { cumulative: [] }, verbose: false } },
  });
  expect(r.status, r.text.slice(0, 300)).toBe(200);
  const out = new Map<string, string>();
  for (const entry of r.json as { contractEntry: Record<string, { createdEvent?: { contractId: string; templateId: string }; assignedEvent?: { createdEvent: { contractId: string; templateId: string } } }> }[]) {
    const e = entry.contractEntry;
    const created = e['JsActiveContract']?.createdEvent ?? e['JsIncompleteAssigned']?.assignedEvent?.createdEvent;
    if (created) out.set(created.contractId, created.templateId);
  }
  return out;
}
