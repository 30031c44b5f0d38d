import fc from 'fast-check';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ProtocolError } from '../../src/errors/index.js';
import { DamlValue, Int64, JsGetUpdatesResponse, Offset, OptionalDamlValue } from '../../src/schemas/index.js';
import { compilePassThroughCheck } from '../../src/schemas/pass-through-check.js';
import { variant, wrapped } from '../../src/schemas/variant.js';
import { decodeUpdateElement } from '../../src/updates/index.js';
import { createdEvent, offsetCheckpoint, reassignment, topologyTransaction, transaction } from '../streams/update-fixtures.js';

const SEED = 16_2026;

/** The same value, with the same keys in the same order (what zod's output has to be for a pass-through). */
function identical(a: unknown, b: unknown): boolean {
  return isDeepStrictEqual(a, b) && JSON.stringify(a) === JSON.stringify(b);
}

const party = `Alice::1220${'ab'.repeat(32)}`;
const templateId = `${'9a'.repeat(32)}:Iou:Iou`;

function archivedEvent(offset: number, nodeId: number): Record<string, unknown> {
  return { ArchivedEvent: { offset, nodeId, contractId: `00${'11'.repeat(32)}`, templateId, witnessParties: [party], packageName: 'model-tests', implementedInterfaces: [] } };
}

function exercisedEvent(offset: number, nodeId: number): Record<string, unknown> {
  return {
    ExercisedEvent: {
      offset, nodeId, contractId: `00${'33'.repeat(32)}`, templateId, interfaceId: null, choice: 'Transfer',
      choiceArgument: { newOwner: party, amounts: ['1.0', '2.5'] }, actingParties: [party], consuming: true,
      witnessParties: [party], lastDescendantNodeId: nodeId + 1, exerciseResult: null, packageName: 'model-tests',
      implementedInterfaces: null, acsDelta: false,
    },
  };
}

/** A created event with an interface view whose status has details (a record of unknown fields inside). */
function createdWithView(offset: number, nodeId: number): Record<string, unknown> {
  const event = createdEvent(offset, nodeId) as { CreatedEvent: Record<string, unknown> };
  event.CreatedEvent['interfaceViews'] = [{
    interfaceId: `${'9a'.repeat(32)}:Iou:IIou`,
    viewStatus: { code: 0, message: '', details: [{ typeUrl: 't', value: 'v', unknownFields: { fields: { '1': { varint: [1] } } }, valueDecoded: null }] },
    viewValue: { amount: '1.0' },
    implementationPackageId: null,
  }];
  return event;
}

/** Valid elements of every kind and event kind, as the server sends them. */
const valid = fc.tuple(fc.nat({ max: 2 ** 40 }), fc.integer({ min: 0, max: 5 })).map(([offset, kind]) => {
  switch (kind) {
    case 0: return transaction(offset, [createdEvent(offset, 0), archivedEvent(offset, 1)]);
    case 1: return transaction(offset, [exercisedEvent(offset, 0), createdWithView(offset, 2), archivedEvent(offset, 3)]);
    case 2: return offsetCheckpoint(offset);
    case 3: return reassignment(offset);
    case 4: return topologyTransaction(offset);
    default: return transaction(offset, []);
  }
});

/** Every (container, key) of a JSON tree, depth first, the root's own slot first. */
function slots(root: Record<string, unknown>): [Record<string, unknown> | unknown[], string | number][] {
  const out: [Record<string, unknown> | unknown[], string | number][] = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      node.forEach((item, i) => {
        out.push([node, i]);
        visit(item);
      });
    } else if (typeof node === 'object' && node !== null) {
      for (const key of Object.keys(node)) {
        out.push([node as Record<string, unknown>, key]);
        visit((node as Record<string, unknown>)[key]);
      }
    }
  };
  visit(root);
  return out;
}

const replacement = fc.constantFrom<unknown>(
  null, undefined, 'x', '', '17', '-3', '1e3', 7, -1, 0, 1.5, 2 ** 53, 2 ** 31, -(2 ** 31) - 1, Number.NaN, true, false, [], {}, ['x'], { Unknown: {} },
  { value: {} }, { CreatedEvent: {} }, 'PARTICIPANT_PERMISSION_SUBMISSION',
);

type Mutation =
  | { readonly at: number; readonly op: 'delete' | 'reverse' | 'numericString' | 'extraFirst' | 'extraLast' | 'protoKey' | 'prototype' }
  | { readonly at: number; readonly op: 'replace'; readonly value: unknown };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ at: fc.nat(), op: fc.constantFrom('delete', 'reverse', 'numericString', 'extraFirst', 'extraLast', 'protoKey', 'prototype') as fc.Arbitrary<'delete'> }),
  fc.record({ at: fc.nat(), op: fc.constant('replace' as const), value: replacement }),
);

/** Applies a mutation at one slot of the tree (chosen by `at`); the tree is modified in place. */
function mutate(root: Record<string, unknown>, m: Mutation): void {
  const all = slots(root);
  if (all.length === 0) return;
  const [container, key] = all[m.at % all.length] as [Record<string, unknown> | unknown[], string | number];
  const target = (container as Record<string | number, unknown>)[key];
  const objectTarget = typeof target === 'object' && target !== null && !Array.isArray(target) ? (target as Record<string, unknown>) : undefined;
  const rebuild = (entries: [string, unknown][]): void => {
    (container as Record<string | number, unknown>)[key] = Object.fromEntries(entries);
  };
  switch (m.op) {
    case 'delete':
      if (Array.isArray(container)) container.splice(key as number, 1);
      else delete container[key as string];
      return;
    case 'replace':
      (container as Record<string | number, unknown>)[key] = m.value;
      return;
    case 'numericString':
      if (typeof target === 'number') (container as Record<string | number, unknown>)[key] = String(target);
      return;
    case 'reverse':
      if (objectTarget) rebuild(Object.entries(objectTarget).reverse());
      return;
    case 'extraFirst':
      if (objectTarget) rebuild([['zExtra', 1], ...Object.entries(objectTarget)]);
      return;
    case 'extraLast':
      if (objectTarget) objectTarget['zExtra'] = { nested: [1] };
      return;
    case 'protoKey':
      if (objectTarget) (container as Record<string | number, unknown>)[key] = JSON.parse(`{"__proto__":{"polluted":1},${JSON.stringify(objectTarget).slice(1)}`);
      return;
    case 'prototype':
      if (objectTarget) (container as Record<string | number, unknown>)[key] = Object.assign(Object.create({ inherited: 1 }) as object, objectTarget);
      return;
  }
}

describe('compilePassThroughCheck(JsGetUpdatesResponse): the validated decoder\'s fast path', () => {
  const check = compilePassThroughCheck(JsGetUpdatesResponse);

  it('accepts valid elements of every kind as they are, and zod gives them back unchanged', () => {
    fc.assert(
      fc.property(valid, (element) => {
        expect(check(element)).toBe(true);
        const result = JsGetUpdatesResponse.safeParse(element);
        expect(result.success && identical(result.data, element)).toBe(true);
      }),
      { seed: SEED, numRuns: 60 },
    );
  });

  it('accepts a mutated element only when zod accepts it and gives it back unchanged; the decoder\'s result or error is zod\'s', () => {
    let accepted = 0;
    let declined = 0;
    fc.assert(
      fc.property(valid, fc.array(mutation, { minLength: 1, maxLength: 3 }), (generated, mutations) => {
        const element = structuredClone(generated);
        for (const m of mutations) mutate(element, m);
        const zod = JsGetUpdatesResponse.safeParse(element);
        if (check(element)) {
          accepted++;
          expect(zod.success && identical(zod.data, element)).toBe(true);
        } else {
          declined++;
        }
        let decoded: unknown;
        let error: unknown;
        try {
          decoded = decodeUpdateElement(element, 4, { validate: true });
        } catch (e) {
          error = e;
        }
        if (zod.success) {
          expect(error).toBeUndefined();
          expect(identical(decoded, zod.data)).toBe(true);
        } else {
          expect(error).toBeInstanceOf(ProtocolError);
          expect((error as ProtocolError).code).toBe('SCHEMA_MISMATCH');
          expect((error as ProtocolError).issues).toEqual(zod.error.issues.map((i) => ({ path: i.path, message: i.message, code: i.code })));
          expect((error as ProtocolError).message).toMatch(/^element 4 \(offset \S+\) of the updates array does not match JsGetUpdatesResponse: /);
        }
      }),
      { seed: SEED, numRuns: 400 },
    );
    // Both outcomes occur, so neither assertion above is vacuous.
    expect(accepted).toBeGreaterThan(20);
    expect(declined).toBeGreaterThan(100);
  });
});

describe('compilePassThroughCheck on other schemas', () => {
  const cases: [string, z.ZodType, unknown, boolean][] = [
    ['a loose object keeps extra keys after the shape', z.looseObject({ a: z.string() }), { a: 'x', b: 1 }, true],
    ['a loose object moves extra keys before the shape behind it', z.looseObject({ a: z.string() }), { b: 1, a: 'x' }, false],
    ['a plain object strips extra keys', z.object({ a: z.string() }), { a: 'x', b: 1 }, false],
    ['a strict object rejects extra keys', z.strictObject({ a: z.string() }), { a: 'x', b: 1 }, false],
    ['keys out of the shape order are reordered', z.looseObject({ a: z.string(), b: z.string() }), { b: 'y', a: 'x' }, false],
    ['an absent optional key stays absent', z.looseObject({ a: z.string().nullish() }), {}, true],
    ['an absent key of a custom schema that accepts undefined is an issue in an object', z.looseObject({ k: OptionalDamlValue }), {}, false],
    ['a present undefined is kept', z.looseObject({ k: OptionalDamlValue }), { k: undefined }, true],
    ['a Daml value must be present', z.looseObject({ k: DamlValue }), { k: null }, true],
    ['a default fills in', z.looseObject({ a: z.string().default('d') }), {}, false],
    ['a transform changes', z.string().transform((s) => s.length), 'abc', false],
    ['a numeric string becomes a number', Int64, '12', false],
    ['a number beyond 2^53 is refused', Int64, 2 ** 53, false],
    ['an offset is not negative', Offset, -1, false],
    ['an int64 passes', Int64, -(2 ** 40), true],
    ['a string with a check is not compiled', z.string().min(2), 'abc', false],
    ['an enum value passes', z.enum(['A', 'B']), 'B', true],
    ['an unknown enum value does not', z.enum(['A', 'B']), 'C', false],
    ['a record of strings passes', z.record(z.string(), z.number()), { x: 1, y: 2 }, true],
    ['a lazy schema is not compiled', z.lazy(() => z.string()), 'a', false],
    ['an array of another prototype is not plain', z.array(z.number()), new (class extends Array<number> {})(), false],
  ];
  it.each(cases)('%s', (_name, schema, value, expected) => {
    const answer = compilePassThroughCheck(schema)(value);
    expect(answer).toBe(expected);
    if (answer) {
      const result = schema.safeParse(value);
      expect(result.success && identical(result.data, value)).toBe(true);
    }
  });

  it('a variant passes a known alternative and leaves an unknown one to zod (which makes it an UnknownVariant)', () => {
    const v = variant('V', { A: wrapped(z.looseObject({ n: Int64 })), B: z.looseObject({}) }, { open: true });
    const check = compilePassThroughCheck(v);
    expect(check({ A: { value: { n: 1 } } })).toBe(true);
    expect(check({ B: {} })).toBe(true);
    expect(check({ C: {} })).toBe(false);
    expect(check({ A: { value: { n: 1 } }, B: {} })).toBe(false);
    expect(check({})).toBe(false);
    expect(v.parse({ C: {} })).toEqual({ unknownVariant: 'C', payload: {} });
  });
});
