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

function defOf(schema: z.ZodType): Def {
  return (schema as unknown as { _zod: { def: Def } })._zod.def;
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
 * Pure; compiling walks the schema once (shared sub-schemas are compiled once) and generates the check as
 * JavaScript source, one function per object, array, record and variant schema with the scalar checks
 * written inline and the keys as literals (`new Function`), so that each property read is a plain named
 * access. Where code generation from strings is disallowed (`--disallow-code-generation-from-strings`), the
 * check always answers false (every element is parsed by zod). The check never throws for JSON values and
 * allocates nothing.
 */
export function compilePassThroughCheck(schema: z.ZodType): PassThroughCheck {
  const generator = new CheckGenerator();
  const root = generator.test(built(schema), 'v');
  const source = [
    '"use strict";',
    'const OP = Object.prototype, AP = Array.prototype, gp = Object.getPrototypeOf, isArray = Array.isArray, isSafeInteger = Number.isSafeInteger, isFinite = Number.isFinite;',
    ...generator.deps.map((_, i) => `const d${i} = deps[${i}];`),
    ...generator.functions,
    `return function passesUnchanged(v) { return ${root}; };`,
  ].join('\n');
  try {
    return new Function('deps', source)(generator.deps) as PassThroughCheck;
  } catch (error) {
    if (error instanceof EvalError) return () => false;
    throw error;
  }
}

/** The plain-object test of the generated code (`OP`, `gp`: see `compilePassThroughCheck`). */
const plainObject = (x: string): string => `typeof ${x} === "object" && ${x} !== null && gp(${x}) === OP`;

/** Writes the source of a check: a JavaScript expression per schema, and the functions they call. */
class CheckGenerator {
  /** Values the generated code refers to as `d0`, `d1`...: enum sets, custom check functions. */
  readonly deps: unknown[] = [];
  /** Function declarations, one per object, array, record and variant schema. */
  readonly functions: string[] = [];
  private readonly names = new Map<z.ZodType, string>();

  /** A JavaScript expression, true when the value in the variable `x` passes `schema` unchanged. */
  test(schema: z.ZodType, x: string): string {
    if (variantInfo(schema) !== undefined) return `${this.functionOf(schema)}(${x})`;
    const def = defOf(schema);
    const checks = def.checks ?? [];
    switch (def.type) {
      case 'string':
        return checks.length === 0 ? `typeof ${x} === "string"` : 'false';
      case 'boolean':
        return checks.length === 0 ? `typeof ${x} === "boolean"` : 'false';
      case 'number':
        return numberTest(checks.map((c) => c._zod.def), x);
      case 'enum':
        return checks.length === 0 ? `${this.dep(new Set(Object.values(def.entries ?? {})))}.has(${x})` : 'false';
      case 'custom':
        return checks.length > 0 ? 'false' : def.fn === undefined ? 'true' : `${this.dep(def.fn)}(${x}) === true`;
      case 'optional':
      case 'nullable':
        return def.innerType === undefined || checks.length > 0
          ? 'false'
          : `(${x} === ${def.type === 'optional' ? 'undefined' : 'null'} || ${this.test(def.innerType, x)})`;
      case 'union': {
        const first = def.options?.[0];
        return first === undefined || checks.length > 0 ? 'false' : this.test(first, x);
      }
      case 'array':
      case 'record':
      case 'object':
        return `${this.functionOf(schema)}(${x})`;
      default:
        return 'false';
    }
  }

  private dep(value: unknown): string {
    this.deps.push(value);
    return `d${this.deps.length - 1}`;
  }

  /** The name of the function checking `schema` (declared on first use; shared sub-schemas share it). */
  private functionOf(schema: z.ZodType): string {
    const known = this.names.get(schema);
    if (known !== undefined) return known;
    const name = `c${this.names.size}`;
    this.names.set(schema, name);
    this.functions.push(`function ${name}(v) {\n${this.body(schema)}\n}`);
    return name;
  }

  private body(schema: z.ZodType): string {
    const variant = variantInfo(schema);
    if (variant !== undefined) return this.variantBody(variant.cases);
    const def = defOf(schema);
    if ((def.checks ?? []).length > 0) return 'return false;';
    if (def.type === 'array') {
      return def.element === undefined
        ? 'return false;'
        : `if (!isArray(v) || gp(v) !== AP) return false;\nfor (let i = 0; i < v.length; i++) { const x = v[i]; if (!(${this.test(def.element, 'x')})) return false; }\nreturn true;`;
    }
    if (def.type === 'record') {
      return def.keyType === undefined || def.valueType === undefined || !isPlainString(def.keyType)
        ? 'return false;'
        : `if (!(${plainObject('v')})) return false;\nfor (const k in v) { if (k === "__proto__") return false; const x = v[k]; if (!(${this.test(def.valueType, 'x')})) return false; }\nreturn true;`;
    }
    return def.shape === undefined ? 'return false;' : this.objectBody(def.shape, extraKeysKept(def.catchall));
  }

  /**
   * An object: every shape key present has a value that passes, every one absent may be absent, and the keys
   * come in zod's output order: the shape's keys present, in the shape's order, then the extra keys (only when
   * they are kept). The order is checked along the value's keys: a shape key must come after the one before
   * it and before any extra key.
   */
  private objectBody(shape: Readonly<Record<string, z.ZodType>>, extraKept: boolean): string {
    const keys = Object.keys(shape);
    if (keys.includes('__proto__')) return 'return false;';
    const lines = [`if (!(${plainObject('v')})) return false;`, 'let f;'];
    keys.forEach((key) => {
      const literal = JSON.stringify(key);
      const internals = (shape[key] as unknown as { _zod: { optin?: string; optout?: string } })._zod;
      // zod leaves an absent key out only when its schema is optional both ways; otherwise absence is an
      // issue (even for a schema that accepts `undefined`) or a default is filled in.
      const absentOk = internals.optin === 'optional' && internals.optout === 'optional';
      const test = this.test(shape[key] as z.ZodType, 'f');
      lines.push(`f = v[${literal}];`, `if (f === undefined && !(${literal} in v)) { ${absentOk ? '' : 'return false;'} } else if (!(${test})) return false;`);
    });
    lines.push('let next = 0, extras = false;', 'for (const k in v) {', 'switch (k) {');
    keys.forEach((key, j) => lines.push(`case ${JSON.stringify(key)}: if (extras || next > ${j}) return false; next = ${j + 1}; break;`));
    lines.push(extraKept ? 'default: if (k === "__proto__") return false; extras = true;' : 'default: return false;', '}', '}', 'return true;');
    return lines.join('\n');
  }

  /**
   * A variant built by `variant()`: exactly one own key, a known alternative (an unknown one becomes an
   * `UnknownVariant` in the parse, so it is not a pass-through), whose payload passes its case's check.
   */
  private variantBody(cases: Readonly<Record<string, z.ZodType>>): string {
    const lines = [`if (!(${plainObject('v')})) return false;`, 'let tag;', 'for (const k in v) { if (tag !== undefined) return false; tag = k; }'];
    lines.push('if (tag === undefined) return false;', 'const p = v[tag];', 'if (p === undefined) return false;', 'switch (tag) {');
    for (const [key, schema] of Object.entries(cases)) lines.push(`case ${JSON.stringify(key)}: return ${this.test(schema, 'p')};`);
    lines.push('default: return false;', '}');
    return lines.join('\n');
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
function numberTest(checks: readonly CheckDef[], x: string): string {
  let min = -Infinity;
  let max = Infinity;
  let integer = false;
  for (const c of checks) {
    if (c.check === 'number_format' && c.format === 'safeint') integer = true;
    else if (c.check === 'greater_than' && c.inclusive === true && typeof c.value === 'number') min = Math.max(min, c.value);
    else if (c.check === 'less_than' && c.inclusive === true && typeof c.value === 'number') max = Math.min(max, c.value);
    else return 'false';
  }
  const parts = [`typeof ${x} === "number"`, integer ? `isSafeInteger(${x})` : `isFinite(${x})`];
  if (min > -Infinity) parts.push(`${x} >= ${String(min)}`);
  if (max < Infinity) parts.push(`${x} <= ${String(max)}`);
  return `(${parts.join(' && ')})`;
}
