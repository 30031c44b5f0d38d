import type { TestProject } from 'vitest/node';
import { startPostgres, type PostgresServer } from '../../scripts/postgres-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** URL of the PostgreSQL server for tests, or `undefined` when none could be started. */
    pgUrl: string | undefined;
  }
}

let server: PostgresServer | undefined;

/**
 * Provides a PostgreSQL server to the tests: `LEDGER_RX_PG_URL` when set (CI may start one), otherwise a
 * throwaway server started here. Under CI (`CI` set) a missing server is an error, never a silent skip.
 */
export async function setup(project: TestProject): Promise<void> {
  let url = process.env['LEDGER_RX_PG_URL'];
  if (!url) {
    server = await startPostgres();
    url = server?.url;
  }
  if (!url && process.env['CI']) throw new Error('PostgreSQL is required under CI but could not be started');
  if (url) process.env['LEDGER_RX_PG_URL'] = url;
  project.provide('pgUrl', url);
}

export function teardown(): void {
  server?.stop();
}
