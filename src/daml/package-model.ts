/**
 * The package model a DAR decodes to (see docs/daml-archives.md): packages, modules and the serializable
 * declarations a client needs (data types, templates, interfaces), with every interned string, dotted name
 * and type resolved. Expressions (the Daml code itself) are not decoded.
 */

/** A reference to a data type, template or interface: its package id, module and (dotted) entity name. */
export interface TypeConRef {
  readonly packageId: string;
  readonly module: string;
  readonly name: string;
}

/** The builtin types of Daml-LF 2 by name (`Numeric` carries its scale as a `nat` argument). */
export type DamlBuiltinName =
  | 'Unit'
  | 'Bool'
  | 'Int64'
  | 'Date'
  | 'Timestamp'
  | 'Numeric'
  | 'Party'
  | 'Text'
  | 'ContractId'
  | 'Optional'
  | 'List'
  | 'GenMap'
  | 'TextMap'
  | 'Any'
  | 'AnyException'
  | 'TypeRep'
  | 'Arrow'
  | 'Update'
  | 'FailureCategory'
  | 'BigNumeric'
  | 'RoundingMode';

/**
 * A Daml-LF type. `var` is a type parameter, `con` a data type (possibly applied), `builtin` a builtin (possibly
 * applied), `nat` a Numeric scale; `unserializable` stands for the kinds that never appear in a serializable
 * position (`forall`, `struct`, synonyms, type applications).
 */
export type DamlType =
  | { readonly kind: 'var'; readonly name: string; readonly args: readonly DamlType[] }
  | { readonly kind: 'con'; readonly tycon: TypeConRef; readonly args: readonly DamlType[] }
  | { readonly kind: 'builtin'; readonly builtin: DamlBuiltinName; readonly args: readonly DamlType[] }
  | { readonly kind: 'nat'; readonly value: number }
  | { readonly kind: 'unserializable'; readonly what: 'forall' | 'struct' | 'synonym' | 'application' };

/** A record field, or a variant constructor (its name and the type of its payload). */
export interface DamlField {
  readonly name: string;
  readonly type: DamlType;
}

/** What a data type is: a record, a variant, an enum, or the marker of an interface. */
export type DamlDataTypeDefinition =
  | { readonly kind: 'record'; readonly fields: readonly DamlField[] }
  | { readonly kind: 'variant'; readonly constructors: readonly DamlField[] }
  | { readonly kind: 'enum'; readonly constructors: readonly string[] }
  | { readonly kind: 'interface' };

/** A data type declaration (`data` in Daml; a template's payload is the record of the template's name). */
export interface DamlDataType {
  /** The dotted name (`Outcome.Win` for a variant's record constructor). */
  readonly name: string;
  /** The type parameters, in order. */
  readonly params: readonly string[];
  /** False for types that cannot travel on the ledger (functions inside): the generator skips them. */
  readonly serializable: boolean;
  readonly definition: DamlDataTypeDefinition;
}

/** A choice of a template or an interface. */
export interface DamlChoice {
  readonly name: string;
  /** Whether exercising it archives the contract. */
  readonly consuming: boolean;
  /** The argument's type (a record in practice). */
  readonly argument: DamlType;
  /** The result's type. */
  readonly result: DamlType;
}

/** A template: its payload is the record data type of the same name in the same module. */
export interface DamlTemplate {
  readonly name: string;
  /** The payload type: a `con` of this template's own record. */
  readonly payload: DamlType;
  /** The contract key's type, when the template has a key (Daml-LF 2.dev only). */
  readonly key: DamlType | undefined;
  /** The choices, in declaration order, including the implicit `Archive`. */
  readonly choices: readonly DamlChoice[];
  /** The interfaces this template implements. */
  readonly implements: readonly TypeConRef[];
}

/** An interface: its view type, its choices and the interfaces it requires. */
export interface DamlInterface {
  readonly name: string;
  readonly view: DamlType;
  readonly choices: readonly DamlChoice[];
  readonly requires: readonly TypeConRef[];
}

/** A module: its dotted name and declarations, in the order of the archive. */
export interface DamlModule {
  readonly name: string;
  readonly dataTypes: readonly DamlDataType[];
  readonly templates: readonly DamlTemplate[];
  readonly interfaces: readonly DamlInterface[];
}

/** One decoded Daml-LF package. */
export interface DamlPackage {
  /** The package id: the lowercase hex SHA-256 of the archive payload. */
  readonly id: string;
  /** The package name of its metadata (`Package.metadata`, not the file name). */
  readonly name: string;
  readonly version: string;
  /** The Daml-LF version, e.g. `2.1`. */
  readonly lfVersion: string;
  /** The package this one upgrades, when its metadata names one. */
  readonly upgradedPackageId: string | undefined;
  readonly modules: readonly DamlModule[];
}
