/**
 * One versioned schema change of the ingestion database. `statements` run in order inside the migration
 * transaction, with `search_path` set to the target schema (unqualified names land there). Versions are
 * applied in increasing order, each exactly once; a released version is never edited — add a new one.
 */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly statements: readonly string[];
}
