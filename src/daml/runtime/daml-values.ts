/**
 * The TypeScript types of Daml values as the participant's JSON Ledger API v2 encodes them
 * (docs/typed-templates.md, "The JSON mapping"). Generated code (`ledger-rx codegen`) uses these names.
 */

/** Int64: a decimal string (`"-5"`), never a JSON number. */
export type Int64 = string;
/** Numeric: a decimal string; the participant writes every digit of the scale (`"1.5000000000"`, `"42."` at scale 0). */
export type Numeric = string;
/** Party: the party id. */
export type Party = string;
/** Date: `YYYY-MM-DD`. */
export type DamlDate = string;
/** Timestamp: ISO 8601 in UTC with `Z` and 0 to 6 fraction digits, as the participant prints it. */
export type Timestamp = string;
/** Unit: the empty object `{}`. */
export type Unit = { readonly [key: string]: never };
/** Optional a, for an `a` that is not itself an Optional: `null` for None. */
export type Optional<T> = T | null;
/** One level of a nested Optional (`Optional (Optional a)`): the participant writes every level as an array, `[]` for None. */
export type OptionalLevel<T> = [] | [T];
/** TextMap a: a JSON object. */
export type TextMap<V> = { [key: string]: V };
/** GenMap k v (`DA.Map.Map`): an array of `[key, value]` pairs. */
export type GenMap<K, V> = [K, V][];

declare const contractIdOf: unique symbol;

/**
 * A contract id of a contract of template (or interface) `T`: a string, branded so that the compiler keeps
 * ids of different templates apart. Obtain one from a typed event (`createdOf`) or cast a string you trust.
 */
export type ContractId<T> = string & { readonly [contractIdOf]: T };

declare const interfaceIdOf: unique symbol;

/** The type of an interface (only used as `ContractId<I>`): a marker carrying the interface's id. */
export type InterfaceType<Id extends string> = { readonly [interfaceIdOf]: Id };
