/**
 * The serializable Daml-LF types of an uploaded package, as the sandbox keeps them to type-check command
 * arguments (docs/sandbox.md#typed-creates). Read from the archive by `packages/read-package-signatures.ts`.
 * Anything not serializable (functions, foralls, structs, synonyms, `Update`, `Any`…) is `other`: no value of
 * it can be sent, so it never reaches the checker through a template's payload or a choice argument.
 */
export type LfType =
  | { readonly kind: 'var'; readonly name: string }
  | { readonly kind: 'con'; readonly packageId: string; readonly qualifiedName: string; readonly args: readonly LfType[] }
  | { readonly kind: 'builtin'; readonly builtin: LfBuiltin; readonly args: readonly LfType[] }
  | { readonly kind: 'nat'; readonly value: number }
  | { readonly kind: 'other'; readonly what: string };

/** The builtin types a serializable value can have (daml_lf2.proto `BuiltinType`; TextMap is 19). */
export type LfBuiltin = 'Unit' | 'Bool' | 'Int64' | 'Date' | 'Timestamp' | 'Numeric' | 'Party' | 'Text' | 'ContractId' | 'Optional' | 'List' | 'GenMap' | 'TextMap';

/** A field of a record, or a constructor of a variant (its payload type). */
export interface LfField {
  readonly name: string;
  readonly type: LfType;
}

/** A data type declaration: its type parameters and its definition. */
export type LfDataType = { readonly params: readonly string[] } & (
  | { readonly kind: 'record'; readonly fields: readonly LfField[] }
  | { readonly kind: 'variant'; readonly constructors: readonly LfField[] }
  | { readonly kind: 'enum'; readonly constructors: readonly string[] }
  | { readonly kind: 'interface' }
);
