import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { readDar, type DamlDataType, type DamlModule, type DamlPackage, type DamlType } from '../../src/daml/index.js';
import { sharedDir } from '../support/shared-dir.js';
import { lfTypeText, parseDamlSource, type SourceField, type SourceModule } from './support/daml-source-declarations.js';

/**
 * For each DAR of ../shared/dars: the package model of its main package declares exactly what the Daml sources
 * shipped inside the DAR declare (templates with their fields, choices with consuming flag, argument fields and
 * result type, interfaces with view and choices, data types), read independently from the `.daml` text.
 */
const dars = ['richtypes.dar', 'splice-api-token-holding-v1.dar', 'splice-amulet-name-service.dar'];
/** What the source reader must find (counted with grep), so that a reader that finds nothing cannot pass. */
const declared: Record<string, { templates: number; interfaces: number; choices: number }> = {
  'richtypes.dar': { templates: 2, interfaces: 0, choices: 1 },
  'splice-api-token-holding-v1.dar': { templates: 0, interfaces: 1, choices: 0 },
  'splice-amulet-name-service.dar': { templates: 4, interfaces: 0, choices: 12 },
};

function sourcesOf(bytes: Uint8Array): SourceModule[] {
  const files = unzipSync(bytes, { filter: (f) => f.name.endsWith('.daml') });
  return Object.keys(files).sort().map((name) => parseDamlSource(strFromU8(files[name]!)));
}

const fieldsText = (fields: readonly { name: string; type: DamlType }[]): SourceField[] => fields.map((f) => ({ name: f.name, type: lfTypeText(f.type) }));

function recordFields(module: DamlModule, name: string): SourceField[] {
  const dt = module.dataTypes.find((d) => d.name === name);
  if (dt?.definition.kind !== 'record') throw new Error(`${module.name}:${name} is not a record in the archive`);
  return fieldsText(dt.definition.fields);
}

function expectArchiveChoice(pkg: DamlPackage, dar: ReturnType<typeof readDar>, choices: DamlModule['templates'][number]['choices']): void {
  const archive = choices.find((c) => c.name === 'Archive');
  expect(archive?.consuming).toBe(true);
  expect(archive?.result).toEqual({ kind: 'builtin', builtin: 'Unit', args: [] });
  const arg = archive?.argument;
  expect(arg?.kind).toBe('con');
  if (arg?.kind !== 'con') return;
  expect(`${arg.tycon.module}:${arg.tycon.name}`).toBe('DA.Internal.Template:Archive');
  expect(dar.packages.get(arg.tycon.packageId)?.name).toBe('ghc-stdlib-DA-Internal-Template');
  expect(pkg.id).toMatch(/^[0-9a-f]{64}$/);
}

describe.skipIf(sharedDir === undefined)('readDar: the model matches the Daml sources inside each DAR', () => {
  for (const file of dars) {
    it(file, () => {
      const bytes = readFileSync(join(sharedDir!, 'dars', file));
      const dar = readDar(bytes);
      const pkg = dar.main;
      const sources = sourcesOf(bytes);
      const count = (f: (m: SourceModule) => number): number => sources.reduce((n, m) => n + f(m), 0);
      expect({
        templates: count((m) => m.templates.length),
        interfaces: count((m) => m.interfaces.length),
        choices: count((m) => m.templates.reduce((n, t) => n + t.choices.length, 0) + m.interfaces.reduce((n, i) => n + i.choices.length, 0)),
      }).toEqual(declared[file]);
      expect(pkg.modules.map((m) => m.name).sort()).toEqual(sources.map((s) => s.name).sort());
      for (const source of sources) {
        const module = pkg.modules.find((m) => m.name === source.name)!;
        // templates: names, payload fields, choices
        expect(module.templates.map((t) => t.name).sort()).toEqual(source.templates.map((t) => t.name).sort());
        for (const st of source.templates) {
          const t = module.templates.find((x) => x.name === st.name)!;
          expect(recordFields(module, st.name), `${st.name} fields`).toEqual(st.fields);
          expect(t.choices.map((c) => c.name).sort()).toEqual([...st.choices.map((c) => c.name), 'Archive'].sort());
          for (const sc of st.choices) {
            const c = t.choices.find((x) => x.name === sc.name)!;
            expect(c.consuming, `${st.name}.${sc.name} consuming`).toBe(sc.consuming);
            expect(lfTypeText(c.result), `${st.name}.${sc.name} result`).toBe(sc.result);
            expect(c.argument.kind === 'con' && c.argument.tycon.name).toBe(sc.name);
            expect(recordFields(module, sc.name), `${st.name}.${sc.name} argument`).toEqual(sc.fields);
          }
          expectArchiveChoice(pkg, dar, t.choices);
          expect(t.key).toBeUndefined();
        }
        // interfaces: names, views, choices
        expect(module.interfaces.map((i) => i.name).sort()).toEqual(source.interfaces.map((i) => i.name).sort());
        for (const si of source.interfaces) {
          const i = module.interfaces.find((x) => x.name === si.name)!;
          expect(lfTypeText(i.view)).toBe(si.view);
          expect(i.choices.map((c) => c.name).sort()).toEqual([...si.choices.map((c) => c.name), 'Archive'].sort());
          expectArchiveChoice(pkg, dar, i.choices);
          expect(module.dataTypes.find((d) => d.name === si.name)?.definition.kind).toBe('interface');
        }
        // data types: exactly the declared ones, plus the records of templates, choices and variant constructors
        const expected = new Set<string>([
          ...source.dataTypes.map((d) => d.name),
          ...source.templates.flatMap((t) => [t.name, ...t.choices.map((c) => c.name)]),
          ...source.interfaces.flatMap((i) => i.choices.map((c) => c.name)),
          ...source.dataTypes.flatMap((d) => (d.kind === 'variant' ? d.constructors.filter((c) => c.type === `${d.name}.${c.name}`).map((c) => c.type) : [])),
        ]);
        const serializable = (d: DamlDataType): boolean => d.serializable && d.definition.kind !== 'interface';
        expect(module.dataTypes.filter(serializable).map((d) => d.name).sort()).toEqual([...expected].sort());
        for (const sd of source.dataTypes) {
          const d = module.dataTypes.find((x) => x.name === sd.name)!;
          expect(d.definition.kind, `${sd.name} kind`).toBe(sd.kind);
          if (sd.kind === 'record' && d.definition.kind === 'record') expect(fieldsText(d.definition.fields), sd.name).toEqual(sd.fields);
          if (sd.kind === 'enum' && d.definition.kind === 'enum') expect(d.definition.constructors).toEqual(sd.constructors);
          if (sd.kind === 'variant' && d.definition.kind === 'variant') expect(fieldsText(d.definition.constructors), sd.name).toEqual(sd.constructors);
        }
      }
    });
  }

  it('reads every package of each DAR with its metadata and the LF version 2.1', () => {
    const expected: Record<string, { count: number; name: string; version: string; id: string }> = {
      'richtypes.dar': { count: 30, name: 'richtypes', version: '0.0.1', id: '9fbb9c81a2f951e871e72723d952fa879c49a90514647b9b496c52251b63cf8f' },
      'splice-api-token-holding-v1.dar': { count: 31, name: 'splice-api-token-holding-v1', version: '1.0.0', id: '718a0f77e505a8de22f188bd4c87fe74101274e9d4cb1bfac7d09aec7158d35b' },
      'splice-amulet-name-service.dar': { count: 43, name: 'splice-amulet-name-service', version: '0.1.21', id: 'b342bbbd425902283c20eb5011eeab90cc9f69b4c534b8b757fd51b8ca7be589' },
    };
    for (const file of dars) {
      const dar = readDar(readFileSync(join(sharedDir!, 'dars', file)));
      const want = expected[file]!;
      expect(dar.packages.size).toBe(want.count);
      expect([dar.main.name, dar.main.version, dar.mainPackageId]).toEqual([want.name, want.version, want.id]);
      for (const p of dar.packages.values()) expect(p.lfVersion).toBe('2.1');
      // every reference to another package resolves inside the DAR
      const refs = new Set<string>();
      const visit = (t: DamlType): void => {
        if (t.kind === 'con') refs.add(t.tycon.packageId);
        if (t.kind === 'con' || t.kind === 'builtin' || t.kind === 'var') t.args.forEach(visit);
      };
      for (const p of dar.packages.values()) for (const m of p.modules) for (const d of m.dataTypes) {
        if (d.definition.kind === 'record') d.definition.fields.forEach((f) => visit(f.type));
        if (d.definition.kind === 'variant') d.definition.constructors.forEach((f) => visit(f.type));
      }
      for (const id of refs) expect(dar.packages.has(id), `${file}: package ${id}`).toBe(true);
    }
  });

  it('richtypes: the exact shape of RichRecord, Outcome and the nonconsuming Relabel', () => {
    const dar = readDar(readFileSync(join(sharedDir!, 'dars', 'richtypes.dar')));
    const m = dar.main.modules.find((x) => x.name === 'RichTypes')!;
    expect(recordFields(m, 'RichRecord').map((f) => `${f.name}: ${f.type}`)).toEqual([
      'owner: Party', 'count: Int64', 'amount: Numeric 10', 'label: Text', 'active: Bool', 'asOf: Date', 'observedAt: Timestamp',
      'note: Optional Text', 'tags: List Text', 'attributes: TextMap Text', 'marker: ContractId Marker', 'profile: Profile',
      'outcome: Outcome', 'fee: Numeric 2',
    ]);
    const outcome = m.dataTypes.find((d) => d.name === 'Outcome')!;
    expect(outcome.definition).toMatchObject({ kind: 'variant' });
    expect(m.templates.find((t) => t.name === 'RichRecord')!.choices.find((c) => c.name === 'Relabel')!.consuming).toBe(false);
  });
});
