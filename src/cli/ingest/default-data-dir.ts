/** Where `ingest` keeps its embedded PostgreSQL, and `sql` looks for it, when no `--pg` or `--data-dir` is given. */
export const defaultDataDir = './ledger-rx-data';
