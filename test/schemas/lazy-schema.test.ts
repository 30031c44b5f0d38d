import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Event, JsGetUpdatesResponse, JsTransaction, Offset, Update } from '../../src/schemas/index.js';
import { componentSchemas } from '../../src/schemas/component-schemas.js';
import { built, lazySchema } from '../../src/schemas/lazy-schema.js';
import { updateCases } from '../../src/schemas/updates.js';
import { variantInfo } from '../../src/schemas/variant.js';
import { wireObject } from '../../src/schemas/wire-object.js';
import { repoRoot } from '../support/shared-dir.js';

describe('lazySchema()', () => {
  it('builds the schema at the first read only, once, and keeps it', () => {
    let builds = 0;
    const schema = lazySchema(() => {
      builds++;
      return z.looseObject({ a: z.number() });
    });
    expect(builds).toBe(0);
    expect(schema.parse({ a: 1 })).toEqual({ a: 1 });
    expect(schema.safeParse({ a: 'x' }).success).toBe(false);
    expect(built(schema)).toBe(built(schema));
    expect(builds).toBe(1);
  });

  it('answers like the schema it builds: parse results, issues, errors, reflection', () => {
    const make = () => z.looseObject({ a: z.number().int(), b: z.array(z.string()).nullish() });
    const lazy = lazySchema(make);
    const eager = make();
    for (const input of [{ a: 1, b: ['x'], c: true }, { a: 1.5 }, { b: [1] }, 'text', null]) {
      expect(lazy.safeParse(input)).toEqual(eager.safeParse(input));
    }
    expect(() => lazy.parse({ a: 'x' })).toThrow(z.ZodError);
    expect(lazy).toBeInstanceOf(z.ZodObject);
    expect(Object.keys(lazy.shape)).toEqual(['a', 'b']);
    expect(lazy.def.type).toBe('object');
    expect(lazy.optional().safeParse(undefined).success).toBe(true);
  });

  it('works inside schemas the user composes', () => {
    const outer = z.object({ offset: Offset, tx: JsTransaction.nullish() });
    expect(outer.parse({ offset: '12', tx: null })).toEqual({ offset: 12, tx: null });
    expect(outer.safeParse({ offset: -1 }).success).toBe(false);
  });

  it('throws what the builder throws, at the first read, and tries again at the next', () => {
    let fail = true;
    const schema = lazySchema(() => {
      if (fail) throw new Error('not now');
      return z.string();
    });
    expect(() => schema.parse('a')).toThrow('not now');
    fail = false;
    expect(schema.parse('a')).toBe('a');
  });

  it('leaves a schema that is not a stand-in as it is', () => {
    const plain = z.string();
    expect(built(plain)).toBe(plain);
  });
});

describe('the lazily built wire model', () => {
  it('composes built schemas: shapes, variant cases and componentSchemas hold the same objects', () => {
    const update = wireObject(JsGetUpdatesResponse).shape['update'];
    expect(update).toBe(built(Update));
    const cases = variantInfo(Event)?.cases ?? {};
    expect(Object.keys(cases).sort()).toEqual(['ArchivedEvent', 'CreatedEvent', 'ExercisedEvent']);
    expect(cases['CreatedEvent']).toBe(componentSchemas['CreatedEvent']);
    expect(componentSchemas['Transaction']).toBe(built(updateCases.Transaction));
    expect(variantInfo(update)?.cases['Transaction']).toBe(componentSchemas['Transaction']);
  });

  it("`import 'ledger-rx'` and `import 'ledger-rx/schemas'` construct no zod schema (zod gives each schema and check its `_zod`)", () => {
    const code = `await import('zod');
      let constructed = 0;
      const define = Object.defineProperty;
      Object.defineProperty = function (o, k, d) { if (k === '_zod') constructed++; return define(o, k, d); };
      await import(${JSON.stringify(join(repoRoot, 'dist', 'index.js'))});
      const schemas = await import(${JSON.stringify(join(repoRoot, 'dist', 'schemas', 'index.js'))});
      const before = constructed;
      schemas.Offset.parse(3);
      process.stdout.write(JSON.stringify({ before, after: constructed }));`;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', code], { cwd: repoRoot, encoding: 'utf8' });
    expect(run.stderr).toBe('');
    const { before, after } = JSON.parse(run.stdout) as { before: number; after: number };
    expect(before).toBe(0);
    expect(after).toBeGreaterThan(0);
  });
});

