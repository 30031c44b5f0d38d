/** The store a `ledger-rx store prune|redact` works on, and what it does. */
export interface StoreMaintenanceOptions {
  readonly pg?: string | undefined;
  readonly dataDir?: string | undefined;
  /** Default `public`. */
  readonly schema?: string | undefined;
  /** Default `default`. */
  readonly streamName?: string | undefined;
  /** prune: `OFFSET`, an ISO-8601 time, or a duration before now (`30d`, `12h`, `90m`, `45s`). */
  readonly archivedBefore?: string | undefined;
  /** prune: delete (without it, a dry run: the same work, rolled back, its counts printed). */
  readonly apply?: boolean | undefined;
  /** reset: the offset to rewind to. */
  readonly to?: string | undefined;
  /** redact: the contract. */
  readonly contract?: string | undefined;
  /** redact: the id recorded with the redaction. */
  readonly redactionId?: string | undefined;
}
