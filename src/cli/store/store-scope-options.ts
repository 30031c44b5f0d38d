import type { ScopeEdit } from '../../sinks/postgres/edit-scope.js';

/** Everything `ledger-rx store scope` does, as options of `runStoreScope`. */
export interface StoreScopeOptions {
  /** The PostgreSQL server `ingest --pg` writes to. */
  readonly pg?: string | undefined;
  /** Else the embedded store (when no ingest has it open: the change is applied at the next start). */
  readonly dataDir?: string | undefined;
  /** Default `public`. */
  readonly schema?: string | undefined;
  /** Default `default`. */
  readonly streamName?: string | undefined;
  /** The changes, in the order of the flags. */
  readonly edits: readonly ScopeEdit[];
  /** Wait until the running ingester applied the change (server only). */
  readonly wait?: boolean | undefined;
}
