/**
 * Quoting for the SQL the store writes from names it did not choose (Daml field names, typed view names):
 * `literal` a string literal (quotes doubled; `standard_conforming_strings` is on by default since PostgreSQL 9.1
 * and in PGlite, so backslashes are plain), `identifier` a quoted identifier (double quotes doubled). Pure.
 */
export const sqlLiteral = (s: string): string => `'${s.replaceAll("'", "''")}'`;

/** `s` as a quoted SQL identifier (see {@link sqlLiteral}). */
export const sqlIdentifier = (s: string): string => `"${s.replaceAll('"', '""')}"`;

/**
 * `s` as an escape string constant (`E'…'`, backslashes and quotes doubled), which means `s` whatever
 * `standard_conforming_strings` is: for values written into SQL text sent without parameters (a batch's script).
 */
export const sqlString = (s: string): string => `E'${s.replace(/[\\']/g, (c) => c + c)}'`;
