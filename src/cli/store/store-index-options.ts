/** The store `ledger-rx store index` works on, and the index it makes. */
export interface StoreIndexOptions {
  readonly pg?: string | undefined;
  readonly dataDir?: string | undefined;
  /** Default `public`. */
  readonly schema?: string | undefined;
  /** The template: `Entity`, `Module:Entity`, `package-name:Module:Entity`, `#package-name:Module:Entity` or its typed view's name. */
  readonly template?: string | undefined;
  /** A column of the template's typed view, or an SQL expression over the columns of `active_contracts`. */
  readonly expr?: string | undefined;
}
