import type { z } from 'zod';
import { built } from './lazy-schema.js';
import { variantInfo } from './variant.js';

/** True when the schema's parse of the value would succeed and give back the value unchanged. */
export type PassThroughCheck = (value: unknown) => boolean;

/** The parts of zod's internal definitions this compiler reads (the drift test reads the same ones). */
interface Def {
  readonly type: string;
  readonly checks?: readonly { readonly _zod: { readonly def: CheckDef } }[];
  readonly shape?: Readonly<Record<string, z.ZodType>>;
  readonly catchall?: z.ZodType;
  readonly innerType?: z.ZodType;
  readonly element?: z.ZodType;
  readonly options?: readonly z.ZodType[];
  readonly entries?: Readonly<Record<string, unknown>>;
  readonly keyType?: z.ZodType;
  readonly valueType?: z.ZodType;
  readonly fn?: (value: unknown) => unknown;
}

interface CheckDef {
  readonly check: string;
  readonly format?: string;
  readonly value?: unknown;
  readonly inclusive?: boolean;
}

const declines: PassThroughCheck = () => false;
const objectPrototype = Object.prototype;
const arrayPrototype = Array.prototype;
const hasOwn = Object.prototype.hasOwnProperty;

function defOf(schema: z.ZodType): Def {
  return (schema as unknown as { _zod: { def: Def } })._zod.def;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === objectPrototype;
}

/**
 * Compiles a zod schema into a check that answers, far faster than parsing: would `schema.parse(value)`
 * succeed AND return a value identical to `value` — the same keys in the same order, the same scalars, no
 * default filled in, no numeric string turned into a number, no unknown variant turned into
 * `{ unknownVariant, payload }`? When it answers true, the caller may use `value` as the parse's result
 * (typed by the schema's output) without parsing. When it answers false, nothing is known: the value may be
 * invalid, or valid but changed by the parse, or of a form the check does not handle; the caller parses with
 * the schema, which then decides (and gives its own issues). So a false answer is always safe and a true answer
 * never is when it should not be.
 *
 * Handled, read from zod's definitions: objects (loose: extra keys kept; strip: none allowed) whose keys come in
 * the order zod's output has them (the shape's order, then the extra keys), arrays, strings and booleans without
 * checks, numbers with the safe-integer format and inclusive bounds, enums, records with string keys, unions (by
 * their first alternative, which zod tries first), optional and nullable wrappers, custom checks (run as zod runs
 * them), and the variants built by `variant()` (a known alternative only). Anything else — transforms, pipes,
 * defaults, other checks, lazy schemas — compiles to a check that always answers false. Values are expected as
 * `JSON.parse` builds them: plain objects and arrays; an object of another prototype, or with an own
 * `__proto__` key, is answered false.
 *
 * Pure; compiling walks the schema once (shared sub-schemas are compiled once); the check never throws for
 * JSON values and allocates nothing.
 */
export function compilePassThroughCheck(schema: z.ZodType): PassThroughCheck {
  return compile(built(schema), new Map());
}

function compile(schema: z.ZodType, compiled: Map<z.ZodType, PassThroughCheck>): PassThroughCheck {
  const known = compiled.get(schema);
  if (known !== undefined) return known;
  // Filled in below; a schema that refers to itself (only possible through z.lazy, which declines) sees this.
  let check: PassThroughCheck = declines;
  const late: PassThroughCheck = (value) => check(value);
  compiled.set(schema, late);
  check = build(schema, compiled);
  compiled.set(schema, check);
  return check;
}

function build(schema: z.ZodType, compiled: Map<z.ZodType, PassThroughCheck>): PassThroughCheck {
  const variant = variantInfo(schema);
  if (variant !== undefined) return variantCheck(variant.cases, compiled);
  const def = defOf(schema);
  const checks = def.checks ?? [];
  switch (def.type) {
    case 'string':
      return checks.length === 0 ? (value) => typeof value === 'string' : declines;
    case 'boolean':
      return checks.length === 0 ? (value) => typeof value === 'boolean' : declines;
    case 'number':
      return numberCheck(checks.map((c) => c._zod.def));
    case 'enum': {
      const allowed = new Set(Object.values(def.entries ?? {}));
      return checks.length === 0 ? (value) => allowed.has(value) : declines;
    }
    case 'custom': {
      const fn = def.fn;
      return checks.length > 0 ? declines : fn === undefined ? () => true : (value) => fn(value) === true;
    }
    case 'optional':
      return wrapperCheck(def, checks, compiled, undefined);
    case 'nullable':
      return wrapperCheck(def, checks, compiled, null);
    case 'union': {
      const first = def.options?.[0];
      return first === undefined || checks.length > 0 ? declines : compile(first, compiled);
    }
    case 'array':
      return def.element === undefined || checks.length > 0 ? declines : arrayCheck(compile(def.element, compiled));
    case 'record':
      return def.keyType === undefined || def.valueType === undefined || checks.length > 0 || !isPlainString(def.keyType)
        ? declines
        : recordCheck(compile(def.valueType, compiled));
    case 'object':
      return def.shape === undefined || checks.length > 0 ? declines : objectCheck(def.shape, extraKeysKept(def.catchall), compiled);
    default:
      return declines;
  }
}

function isPlainString(schema: z.ZodType): boolean {
  const def = defOf(schema);
  return def.type === 'string' && (def.checks ?? []).length === 0;
}

/** Loose objects (catchall `unknown`) keep extra keys as they are; strip and strict objects do not. */
function extraKeysKept(catchall: z.ZodType | undefined): boolean {
  return catchall !== undefined && defOf(catchall).type === 'unknown' && (defOf(catchall).checks ?? []).length === 0;
}

/** `z.number()` with the safe-integer format and inclusive bounds (as `Int64`, `Int32` and `Offset` have). */
function numberCheck(checks: readonly CheckDef[]): PassThroughCheck {
  let min = -Infinity;
  let max = Infinity;
  let integer = false;
  for (const c of checks) {
    if (c.check === 'number_format' && c.format === 'safeint') integer = true;
    else if (c.check === 'greater_than' && c.inclusive === true && typeof c.value === 'number') min = Math.max(min, c.value);
    else if (c.check === 'less_than' && c.inclusive === true && typeof c.value === 'number') max = Math.min(max, c.value);
    else return declines;
  }
  if (integer) return (value) => typeof value === 'number' && Number.isSafeInteger(value) && value >= min && value <= max;
  return (value) => typeof value === 'number' && Number.isFinite(value) && value >= min && value <= max;
}

function wrapperCheck(def: Def, checks: readonly unknown[], compiled: Map<z.ZodType, PassThroughCheck>, passes: null | undefined): PassThroughCheck {
  if (def.innerType === undefined || checks.length > 0) return declines;
  const inner = compile(def.innerType, compiled);
  return (value) => value === passes || inner(value);
}

function arrayCheck(element: PassThroughCheck): PassThroughCheck {
  return (value) => {
    if (!Array.isArray(value) || Object.getPrototypeOf(value) !== arrayPrototype) return false;
    for (let i = 0; i < value.length; i++) if (!element(value[i])) return false;
    return true;
  };
}

function recordCheck(valueCheck: PassThroughCheck): PassThroughCheck {
  return (value) => {
    if (!isPlainObject(value)) return false;
    for (const key in value) {
      if (key === '__proto__' || !valueCheck(value[key])) return false;
    }
    return true;
  };
}

/**
 * An object: every shape key present has a value that passes, every one absent may be absent, and the keys come in zod's output order: the shape's keys present, in the shape's order, then the extra keys
 * (only when they are kept).
 */
function objectCheck(shape: Readonly<Record<string, z.ZodType>>, extraKept: boolean, compiled: Map<z.ZodType, PassThroughCheck>): PassThroughCheck {
  const keys = Object.keys(shape);
  const checks = keys.map((key) => compile(shape[key] as z.ZodType, compiled));
  // zod leaves an absent key out only when its schema is optional both ways; otherwise absence is an issue
  // (even for a schema that accepts `undefined`) or a default is filled in.
  const absentOk = keys.map((key) => {
    const internals = (shape[key] as unknown as { _zod: { optin?: string; optout?: string } })._zod;
    return internals.optin === 'optional' && internals.optout === 'optional';
  });
  const count = keys.length;
  return (value) => {
    if (!isPlainObject(value)) return false;
    for (let k = 0; k < count; k++) {
      const key = keys[k] as string;
      const field = value[key];
      if (field === undefined && !(key in value)) {
        if (!absentOk[k]) return false;
      } else if (!(checks[k] as PassThroughCheck)(field)) {
        return false;
      }
    }
    // The order: walk the shape along the value's keys; a key not found ahead in the shape is an extra key
    // (fine once the shape's keys are done, if extra keys are kept) or a known key out of order.
    let next = 0;
    let extras = false;
    for (const key in value) {
      let j = next;
      while (j < count && keys[j] !== key) j++;
      if (j < count && !extras) {
        next = j + 1;
      } else if (!extraKept || key === '__proto__' || hasOwn.call(shape, key)) {
        return false;
      } else {
        extras = true;
      }
    }
    return true;
  };
}

/**
 * A variant built by `variant()`: exactly one own key, a known alternative (an unknown one becomes an
 * `UnknownVariant` in the parse, so it is not a pass-through), whose payload passes its case's check.
 */
function variantCheck(cases: Readonly<Record<string, z.ZodType>>, compiled: Map<z.ZodType, PassThroughCheck>): PassThroughCheck {
  const caseChecks = new Map<string, PassThroughCheck>();
  for (const [key, schema] of Object.entries(cases)) caseChecks.set(key, compile(schema, compiled));
  return (value) => {
    if (!isPlainObject(value)) return false;
    let tag: string | undefined;
    for (const key in value) {
      if (tag !== undefined) return false;
      tag = key;
    }
    if (tag === undefined) return false;
    const check = caseChecks.get(tag);
    const payload = value[tag];
    return check !== undefined && payload !== undefined && check(payload);
  };
}
