import { z } from 'zod';
import { built } from './lazy-schema.js';

/**
 * A variant the schema does not know: the server sent `{"<unknownVariant>": <payload>}` with a key that
 * is newer than this library. Surfaced as data, never as a crash.
 */
export interface UnknownVariant {
  readonly unknownVariant: string;
  readonly payload: unknown;
}

/** True when `value` is an {@link UnknownVariant}. */
export function isUnknownVariant(value: unknown): value is UnknownVariant {
  return typeof value === 'object' && value !== null && typeof (value as { unknownVariant?: unknown }).unknownVariant === 'string';
}

type Cases = Record<string, z.ZodType>;
type Known<C extends Cases, M extends 'output' | 'input'> = {
  [K in keyof C]: { [P in K]: M extends 'output' ? z.output<C[K]> : z.input<C[K]> };
}[keyof C];

/** The zod type of a variant: one of the known single-key objects, or {@link UnknownVariant} when open. */
export type VariantSchema<C extends Cases, Open extends boolean> = z.ZodType<
  Open extends true ? Known<C, 'output'> | UnknownVariant : Known<C, 'output'>,
  Known<C, 'input'>
>;

interface VariantInfo {
  readonly name: string;
  readonly cases: Cases;
  readonly open: boolean;
}

const registry = new WeakMap<z.ZodType, VariantInfo>();

/**
 * The case names and schemas of a schema built by {@link variant} (or of a lazy stand-in of one: it is built
 * then), or `undefined`. The cases are the built schemas, as the variant's parse uses them.
 */
export function variantInfo(schema: z.ZodType): VariantInfo | undefined {
  return registry.get(built(schema));
}

/**
 * Builds the schema of a Canton variant: a JSON object with exactly one key, the name of the alternative.
 * Whether the payload sits under `"value"` is decided per case by the case schema (see {@link wrapped}).
 *
 * With `open: true` (responses), a key the schema does not know is returned as an {@link UnknownVariant}
 * instead of failing; with `open: false` (requests we send), it is an issue.
 */
export function variant<const C extends Cases, const Open extends boolean>(
  name: string,
  cases: C,
  options: { open: Open },
): VariantSchema<C, Open> {
  // A loose object whose keys are the (optional) alternatives parses only the key that is present, with
  // issue paths under that key; the check then demands exactly one key, and the overwrite turns an unknown
  // key into an UnknownVariant. This costs far less than a transform around a nested safeParse, which
  // matters on the update decoder's hot path.
  // Cases may be lazy stand-ins (see lazySchema): the variant is made of, and reports, the built schemas.
  const builtCases: Cases = {};
  const shape: Record<string, z.ZodType> = {};
  for (const [key, schema] of Object.entries(cases)) {
    builtCases[key] = built(schema);
    shape[key] = builtCases[key].optional();
  }
  const known = new Set(Object.keys(cases));
  const soleKey = (value: object): string | undefined => {
    let key: string | undefined;
    let count = 0;
    for (const k in value) {
      if (Object.prototype.hasOwnProperty.call(value, k)) {
        count++;
        key = k;
      }
    }
    return count === 1 ? key : undefined;
  };
  const schema = z
    .looseObject(shape)
    .check((ctx) => {
      const key = soleKey(ctx.value);
      if (key === undefined) {
        ctx.issues.push({ code: 'custom', message: `${name}: expected exactly one key`, input: ctx.value });
      } else if (!options.open && !known.has(key)) {
        ctx.issues.push({
          code: 'custom',
          message: `${name}: unknown alternative '${key}' (expected one of ${[...known].join(', ')})`,
          input: ctx.value,
          path: [key],
        });
      }
    })
    .overwrite((value) => {
      const key = soleKey(value) as string;
      return (known.has(key) ? value : { unknownVariant: key, payload: (value as Record<string, unknown>)[key] }) as typeof value;
    });
  const typed = schema as unknown as VariantSchema<C, Open>;
  registry.set(typed, { name, cases: builtCases, open: options.open });
  return typed;
}

/**
 * The case schema of a wrapper alternative: `{"value": <payload>}` (a lazy `payload` is built now). A loose
 * object at run time (an unknown key beside `value` is kept); typed as the `{ value }` of the wire model
 * (docs/wire-types.md), which declares no other field.
 */
export function wrapped<T extends z.ZodType>(payload: T): z.ZodType<{ value: z.output<T> }> {
  // The generic payload hides from the compiler that the object's output is `{ value: output<T> }`.
  return z.looseObject({ value: built(payload) }) as unknown as z.ZodType<{ value: z.output<T> }>;
}
