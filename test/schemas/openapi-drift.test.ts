import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { componentSchemas } from '../../src/schemas/component-schemas.js';
import { compilePassThroughCheck } from '../../src/schemas/pass-through-check.js';
import { variantInfo } from '../../src/schemas/variant.js';
import { loadOpenapi, refName, reachableComponents, type OasSchema } from '../support/openapi.js';
import { maxAlternatives, openapiSample } from '../support/openapi-samples.js';
import { specAvailable } from '../support/shared-dir.js';

/** Without ../shared/canton/openapi.yaml: an error under CI; elsewhere these checks skip, with the reason on stderr. */
const withSpec = specAvailable('the wire-model drift test and the pass-through samples (test/schemas/openapi-drift.test.ts)');

/**
 * Where our schema deliberately differs from the spec's required-ness, and why. Each entry names the
 * server behaviour it follows (docs/server-behavior.md).
 */
const requiredExceptions: Readonly<Record<string, string>> = {
  // The server always sends `update`; an element without one has no offset and is a schema failure.
  'JsGetUpdatesResponse.update': 'required',
  'JsGetUpdateResponse.update': 'required',
  // The server's JsGetActiveContractsResponse and CompletionStreamResponse always carry their entry
  // (JSONV2/JsStateService.scala, JsCommandService.scala: plain fields); an element without one is a
  // schema failure, as for `update`.
  'JsGetActiveContractsResponse.contractEntry': 'required',
  'CompletionStreamResponse.completionResponse': 'required',
  // docs/server-behavior.md#json-encoding: the decoder fills `unknownFields` with a default, so it is optional on input.
  'FieldMask.unknownFields': 'optional',
};

/** Where our schema deliberately accepts another type than the spec's, and why. */
const typeExceptions: Readonly<Record<string, string>> = {
  // The server prints the decoded detail as a JSON object (JsSchema.scala:517-536); the spec says string.
  'ProtoAny.valueDecoded': 'any JSON',
};

interface Def {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  valueType?: z.ZodType;
  entries?: Record<string, string>;
  options?: z.ZodType[];
}

function def(schema: z.ZodType): Def {
  return (schema as unknown as { _zod: { def: Def } })._zod.def;
}

/** Strips optional/nullable/default wrappers; a variant is returned as is. */
function unwrap(schema: z.ZodType): z.ZodType {
  let s = schema;
  for (;;) {
    if (variantInfo(s)) return s;
    const d = def(s);
    if ((d.type === 'optional' || d.type === 'nullable' || d.type === 'default') && d.innerType) s = d.innerType;
    else return s;
  }
}

function checkPrimitive(path: string, oas: OasSchema, ours: z.ZodType, problems: string[]): void {
  const accepts = (v: unknown) => ours.safeParse(v).success;
  switch (oas.type) {
    case 'integer':
      if (!accepts(7) || accepts('x') || accepts(1.5)) problems.push(`${path}: expected an integer schema`);
      break;
    case 'string':
      if (oas.enum) {
        for (const e of oas.enum) if (!accepts(e)) problems.push(`${path}: enum value ${e} not accepted`);
        if (accepts('NOT_A_VALUE')) problems.push(`${path}: enum accepts unknown values`);
      } else if (!accepts('a') || accepts(1)) problems.push(`${path}: expected a string schema`);
      break;
    case 'boolean':
      if (!accepts(true) || accepts('true')) problems.push(`${path}: expected a boolean schema`);
      break;
    case undefined:
      // An untyped property is a Daml value: any JSON.
      if (!accepts({ a: [1, 'x', null] }) || !accepts('text') || !accepts(null)) problems.push(`${path}: expected opaque JSON`);
      break;
    default:
      problems.push(`${path}: unhandled primitive type ${oas.type}`);
  }
}

function checkNode(path: string, oas: OasSchema, ours: z.ZodType, problems: string[]): void {
  const inner = unwrap(ours);
  if (oas.$ref) {
    const expected = componentSchemas[refName(oas.$ref)];
    if (!expected) problems.push(`${path}: no schema for ${oas.$ref}`);
    else if (inner !== unwrap(expected)) problems.push(`${path}: does not use the schema of ${refName(oas.$ref)}`);
    return;
  }
  if (oas.type === 'array') {
    const d = def(inner);
    if (d.type !== 'array' || !d.element) problems.push(`${path}: expected an array`);
    else if (oas.items) checkNode(`${path}[]`, oas.items, d.element, problems);
    return;
  }
  checkPrimitive(path, oas, ours, problems);
}

function checkComponent(name: string, oas: OasSchema, ours: z.ZodType): string[] {
  const problems: string[] = [];
  const variant = variantInfo(ours);
  if (oas.oneOf) {
    if (!variant) return [`${name}: spec has oneOf, ours is not a variant`];
    const specCases = new Map<string, string>();
    for (const alt of oas.oneOf) {
      const [key, prop] = Object.entries(alt.properties ?? {})[0] ?? [];
      if (key && prop?.$ref) specCases.set(key, refName(prop.$ref));
    }
    expect.soft([...Object.keys(variant.cases)].sort(), `${name} variant names`).toEqual([...specCases.keys()].sort());
    for (const [key, ref] of specCases) {
      const ourCase = variant.cases[key];
      const expected = componentSchemas[ref];
      if (ourCase && expected && ourCase !== expected) problems.push(`${name}.${key}: case schema is not the schema of ${ref}`);
    }
    return problems;
  }
  const inner = unwrap(ours);
  const d = def(inner);
  if (oas.type === 'array') {
    checkNode(name, oas, ours, problems);
    return problems;
  }
  if (oas.additionalProperties && typeof oas.additionalProperties === 'object') {
    if (d.type !== 'record' || !d.valueType) return [`${name}: expected a record`];
    checkNode(`${name}{}`, oas.additionalProperties, d.valueType, problems);
    return problems;
  }
  if (d.type !== 'object' || !d.shape) return [`${name}: expected an object schema, got ${d.type}`];
  const specProps = oas.properties ?? {};
  expect.soft(Object.keys(d.shape).sort(), `${name} property names`).toEqual(Object.keys(specProps).sort());
  const required = new Set(oas.required ?? []);
  for (const [prop, propSchema] of Object.entries(specProps)) {
    const ourProp = d.shape[prop];
    if (!ourProp) continue;
    const path = `${name}.${prop}`;
    const specRequired = required.has(prop);
    const oursRequired = !ourProp.safeParse(undefined).success;
    const exception = requiredExceptions[path];
    const expectedRequired = exception ? exception === 'required' : specRequired;
    if (oursRequired !== expectedRequired) {
      problems.push(`${path}: spec says ${specRequired ? 'required' : 'optional'}, ours is ${oursRequired ? 'required' : 'optional'}`);
    }
    if (typeExceptions[path] === undefined) checkNode(path, propSchema, ourProp, problems);
  }
  return problems;
}

describe.runIf(withSpec)('wire model agrees with openapi.yaml', () => {
  it('models every component the operations use, and nothing it does not know', () => {
    const doc = loadOpenapi();
    const reachable = reachableComponents(doc);
    expect(reachable.size).toBeGreaterThan(100);
    expect([...reachable].filter((n) => !componentSchemas[n]).sort()).toEqual([]);
    expect(Object.keys(componentSchemas).filter((n) => !reachable.has(n)).sort()).toEqual([]);
  });

  it('every documented exception still names a real property', () => {
    const doc = loadOpenapi();
    for (const path of [...Object.keys(requiredExceptions), ...Object.keys(typeExceptions)]) {
      const [component, prop] = path.split('.') as [string, string];
      expect(doc.components.schemas[component]?.properties?.[prop], path).toBeDefined();
    }
  });

  const doc = withSpec ? loadOpenapi() : undefined;
  const names = doc ? [...reachableComponents(doc)].sort() : [];
  it.each(names)('%s: property names, required-ness, types and variant names', (name) => {
    const oas = doc?.components.schemas[name] as OasSchema;
    const ours = componentSchemas[name] as z.ZodType;
    expect(checkComponent(name, oas, ours)).toEqual([]);
  });
});

/** zod accepts the value and gives it back unchanged: equal, with the same keys in the same order. */
function zodPassesUnchanged(schema: z.ZodType, value: unknown): boolean {
  const result = schema.safeParse(value);
  return result.success && isDeepStrictEqual(result.data, value) && JSON.stringify(result.data) === JSON.stringify(value);
}

describe.runIf(withSpec)('the pass-through check (the validated decoder\'s fast path) agrees with zod on samples of openapi.yaml', () => {
  const doc = withSpec ? loadOpenapi() : undefined;
  const names = doc ? [...reachableComponents(doc)].sort() : [];
  const picks = doc ? maxAlternatives(doc) : 0;

  it.each(names)('%s: every alternative, all or only the required properties, each required one missing', (name) => {
    const oas = doc?.components.schemas[name] as OasSchema;
    const schema = componentSchemas[name] as z.ZodType;
    const check = compilePassThroughCheck(schema);
    const samples: unknown[] = [];
    for (let pick = 0; pick < picks; pick++) {
      samples.push(openapiSample(doc as NonNullable<typeof doc>, oas, 'all', pick), openapiSample(doc as NonNullable<typeof doc>, oas, 'required', pick));
    }
    const full = samples[0];
    for (const key of oas.required ?? []) {
      if (typeof full === 'object' && full !== null && !Array.isArray(full)) {
        const { [key]: _dropped, ...rest } = full as Record<string, unknown>;
        samples.push(rest);
      }
    }
    for (const sample of samples) {
      expect(check(sample), JSON.stringify(sample)).toBe(zodPassesUnchanged(schema, sample));
    }
  });

  it('takes the fast path for every kind of update element as the spec orders its properties', () => {
    const oas = doc?.components.schemas['JsGetUpdatesResponse'] as OasSchema;
    const check = compilePassThroughCheck(componentSchemas['JsGetUpdatesResponse'] as z.ZodType);
    const kinds = new Set<string>();
    for (let pick = 0; pick < picks; pick++) {
      const sample = openapiSample(doc as NonNullable<typeof doc>, oas, 'all', pick) as { update: object };
      kinds.add(Object.keys(sample.update)[0] as string);
      expect(check(sample), JSON.stringify(sample)).toBe(true);
    }
    expect([...kinds].sort()).toEqual(['OffsetCheckpoint', 'Reassignment', 'TopologyTransaction', 'Transaction']);
  });
});
