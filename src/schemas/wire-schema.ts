import type { z } from 'zod';
import { lazySchema } from './lazy-schema.js';

/**
 * The fields a zod object type declares: its properties without the index signature of a loose object
 * (`[x: string]: unknown`, which would accept any misspelled name). Distributes over a union (a variant).
 */
type DeclaredFields<T> = T extends unknown
  ? { [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K] }
  : never;

/** The property names of every member of a union. */
type KeysOfEach<T> = T extends unknown ? keyof T : never;

/**
 * True when `A` and `B` describe the same values: each is assignable to the other (so a field required in one
 * and optional in the other, or a different type, differs) and they have the same property names (so a
 * field only one of them declares, even an optional one, differs).
 */
type SameFields<A, B> = [A] extends [B]
  ? [B] extends [A]
    ? [KeysOfEach<A>] extends [KeysOfEach<B>]
      ? [KeysOfEach<B>] extends [KeysOfEach<A>]
        ? true
        : false
      : false
    : false
  : false;

/**
 * What the compiler reports when a schema and its named type differ: `declared` is the type of
 * the generated type (docs/wire-types.md), `parsed` what the schema gives.
 */
interface SchemaDiffersFromItsType<T, P> {
  readonly declared: T;
  readonly parsed: P;
}

/**
 * The zod schema of a type of the wire model: `parse` and `safeParse` give a `T` (`z.output` of it is `T`).
 * Every schema of `ledger-rx/schemas` that models an OpenAPI component is one (`WireSchema<CreatedEvent>`),
 * built at its first use.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- a name for the zod type, nothing added
export interface WireSchema<T> extends z.ZodType<T> {}

/**
 * A schema of the wire model, typed as the validator of its named type `T` (generated from the spec into the
 * schema's file, after its marker line: docs/wire-types.md), which the constant declares:
 * `export const CreatedEvent: WireSchema<CreatedEvent> = wireSchema(() => z.looseObject({...}))` is a lazy
 * schema (see {@link lazySchema}: built at its first use) whose `parse` returns a `CreatedEvent`.
 *
 * The schema `build` returns is checked against `T` where it is declared: the fields it parses (without the
 * loose object's index signature) must be exactly `T`'s, with the same names, the same required-ness and the
 * same types; otherwise the call does not compile (it asks for a second argument that names both types). So
 * a schema and its type cannot drift, and a constant without its declared type does not compile either (`T`
 * is then `unknown`). At run time this is `lazySchema(build)`: what the schema accepts, keeps (unknown fields,
 * which a loose object passes through) and reports is the built schema's.
 */
export function wireSchema<T, S extends z.ZodType = z.ZodType>(
  build: () => S,
  ...mismatch: SameFields<DeclaredFields<z.output<S>>, T> extends true ? [] : [schemaDiffers: SchemaDiffersFromItsType<T, DeclaredFields<z.output<S>>>]
): WireSchema<T> {
  void mismatch;
  return lazySchema(build) as unknown as WireSchema<T>;
}
