/** Rows (updates) per file by default (`--batch`): with 1-event transactions, a file of a few MB per table. */
export const DEFAULT_FILE_ROWS = 20_000;
/** The longest a file stays open after its first update, by default (`--batch-ms`). */
export const DEFAULT_FILE_MS = 60_000;
