import { posix } from 'node:path';
import { DarError, DarErrorCodes } from '../../daml/dar-error.js';
import type { Dar } from '../../daml/read-dar.js';
import type { DamlChoice, DamlDataType, DamlInterface, DamlModule, DamlPackage, DamlTemplate, DamlType, TypeConRef } from '../../daml/package-model.js';

/** One generated file: its path relative to the output directory (always `/`-separated) and its text. */
export interface GeneratedFile {
  readonly path: string;
  readonly content: string;
}

/** Options of {@link generateTypeScript}. */
export interface GenerateOptions {
  /** The module generated code imports its runtime from (default `ledger-rx/daml`). */
  readonly runtimeModule?: string;
}

const identifierPattern = /^[A-Za-z_$][\w$]*$/;
const propertyKey = (name: string): string => (identifierPattern.test(name) ? name : JSON.stringify(name));
const quote = (s: string): string => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
/** A Daml entity name as a TypeScript identifier: `Outcome.Win` → `Outcome_Win`. */
const entityIdentifier = (name: string): string => name.replace(/\./g, '_');
/** A type variable as a TypeScript type parameter (and the schema argument of the same name). */
const typeVariable = (name: string): string => `$${name.replace(/[^\w$]/g, '_')}`;

/** Every package id a declaration's types refer to. */
function referencedPackages(pkg: DamlPackage, packages: ReadonlyMap<string, DamlPackage>): Set<string> {
  const refs = new Set<string>();
  const visit = (t: DamlType): void => {
    if (t.kind === 'con') refs.add(t.tycon.packageId);
    if (t.kind === 'con' || t.kind === 'builtin' || t.kind === 'var') for (const a of t.args) visit(a);
  };
  const visitChoices = (choices: readonly DamlChoice[]): void => {
    for (const c of choices) {
      visit(c.argument);
      visit(c.result);
    }
  };
  for (const m of pkg.modules) {
    for (const d of m.dataTypes) {
      if (!d.serializable) continue;
      if (d.definition.kind === 'record') d.definition.fields.forEach((f) => visit(f.type));
      if (d.definition.kind === 'variant') d.definition.constructors.forEach((f) => visit(f.type));
    }
    for (const t of m.templates) {
      visitChoices(t.choices);
      for (const i of t.implements) refs.add(i.packageId);
    }
    for (const i of m.interfaces) {
      visit(i.view);
      visitChoices(i.choices);
      for (const r of i.requires) refs.add(r.packageId);
    }
  }
  refs.delete(pkg.id);
  for (const id of refs) {
    if (!packages.has(id)) throw new DarError(DarErrorCodes.DAR_ENTRY_MISSING, `package ${pkg.name} ${pkg.version} (${pkg.id}) refers to package ${id}, which none of the DARs holds`);
  }
  return refs;
}

/** The main packages and every package their declarations need, transitively. */
function packageClosure(dars: readonly Dar[]): DamlPackage[] {
  const packages = new Map<string, DamlPackage>();
  for (const dar of dars) for (const [id, p] of dar.packages) if (!packages.has(id)) packages.set(id, p);
  const needed = new Set<string>();
  const work = dars.map((d) => d.mainPackageId);
  while (work.length > 0) {
    const id = work.pop()!;
    if (needed.has(id)) continue;
    needed.add(id);
    work.push(...referencedPackages(packages.get(id)!, packages));
  }
  return [...needed].map((id) => packages.get(id)!);
}

/**
 * The directory of each package: its name; where two needed packages share a name (two versions of
 * `daml-stdlib` in one DAR), `<name>-<version>`, and where those are equal too, the id's first 8 digits after it.
 */
function packageDirectories(packages: readonly DamlPackage[]): Map<string, string> {
  const byName = new Map<string, DamlPackage[]>();
  for (const p of packages) byName.set(p.name, [...(byName.get(p.name) ?? []), p]);
  const dirs = new Map<string, string>();
  for (const [name, group] of byName) {
    for (const p of group) {
      if (group.length === 1) dirs.set(p.id, name);
      else if (group.filter((q) => q.version === p.version).length === 1) dirs.set(p.id, `${name}-${p.version}`);
      else dirs.set(p.id, `${name}-${p.version}-${p.id.slice(0, 8)}`);
    }
  }
  return dirs;
}

/** Resolves type constructors to their declarations, across the packages being generated. */
class Declarations {
  private readonly dataTypes = new Map<string, DamlDataType>();
  private readonly templates = new Set<string>();
  constructor(readonly packages: ReadonlyMap<string, DamlPackage>) {
    for (const p of packages.values()) {
      for (const m of p.modules) {
        for (const d of m.dataTypes) this.dataTypes.set(Declarations.key(p.id, m.name, d.name), d);
        for (const t of m.templates) this.templates.add(Declarations.key(p.id, m.name, t.name));
      }
    }
  }
  static key(packageId: string, module: string, name: string): string {
    return `${packageId}:${module}:${name}`;
  }
  dataType(ref: TypeConRef): DamlDataType {
    const d = this.dataTypes.get(Declarations.key(ref.packageId, ref.module, ref.name));
    if (d === undefined) throw new DarError(DarErrorCodes.DAR_ARCHIVE_CORRUPT, `type ${ref.module}:${ref.name} of package ${ref.packageId} is not declared there`);
    return d;
  }
  isTemplate(ref: TypeConRef): boolean {
    return this.templates.has(Declarations.key(ref.packageId, ref.module, ref.name));
  }
  /** `#<package-name>:<Module>:<Entity>`. */
  id(ref: TypeConRef): string {
    return `#${this.packages.get(ref.packageId)!.name}:${ref.module}:${ref.name}`;
  }
}

/** The TypeScript text of one Daml module. */
class ModuleWriter {
  private readonly imports = new Map<string, string>(); // file path → alias
  private readonly aliases = new Set<string>();

  constructor(
    private readonly pkg: DamlPackage,
    private readonly module: DamlModule,
    private readonly decls: Declarations,
    private readonly fileOf: (packageId: string, module: string) => string,
  ) {}

  private qualified(ref: TypeConRef): string {
    const local = entityIdentifier(ref.name);
    if (ref.packageId === this.pkg.id && ref.module === this.module.name) return local;
    const to = this.fileOf(ref.packageId, ref.module);
    let alias = this.imports.get(to);
    if (alias === undefined) {
      const base = `${ref.module.replace(/\./g, '_')}$`;
      alias = base;
      for (let n = 2; this.aliases.has(alias); n++) alias = `${base}${n}`;
      this.aliases.add(alias);
      this.imports.set(to, alias);
    }
    return `${alias}.${local}`;
  }

  private isLocal(ref: TypeConRef): boolean {
    return ref.packageId === this.pkg.id && ref.module === this.module.name;
  }

  /** The TypeScript type of a Daml type. */
  type(t: DamlType): string {
    switch (t.kind) {
      case 'var':
        return typeVariable(t.name);
      case 'con': {
        const name = this.qualified(t.tycon);
        return t.args.length === 0 ? name : `${name}<${t.args.map((a) => this.type(a)).join(', ')}>`;
      }
      case 'builtin':
        return this.builtinType(t);
      default:
        throw new Error(`a ${t.kind} type in a serializable position`);
    }
  }

  private builtinType(t: Extract<DamlType, { kind: 'builtin' }>): string {
    const arg = (i: number): DamlType => {
      const a = t.args[i];
      if (a === undefined) throw new Error(`${t.builtin} without its argument ${i}`);
      return a;
    };
    switch (t.builtin) {
      case 'Unit': return 'd.Unit';
      case 'Bool': return 'boolean';
      case 'Int64': return 'd.Int64';
      case 'Date': return 'd.DamlDate';
      case 'Timestamp': return 'd.Timestamp';
      case 'Numeric': return 'd.Numeric';
      case 'Party': return 'd.Party';
      case 'Text': return 'string';
      case 'ContractId': return `d.ContractId<${this.type(arg(0))}>`;
      case 'List': {
        const element = this.type(arg(0));
        return identifierPattern.test(element.replace(/\./g, '')) ? `${element}[]` : `Array<${element}>`;
      }
      case 'TextMap': return `d.TextMap<${this.type(arg(0))}>`;
      case 'GenMap': return `d.GenMap<${this.type(arg(0))}, ${this.type(arg(1))}>`;
      case 'Optional': {
        const { depth, inner } = optionalStack(t);
        if (depth === 1) return `d.Optional<${this.type(inner)}>`;
        let s = this.type(inner);
        for (let i = 0; i < depth; i++) s = `d.OptionalLevel<${s}>`;
        return s;
      }
      default:
        throw new Error(`builtin ${t.builtin} in a serializable position`);
    }
  }

  /** The schema expression of a Daml type. */
  schema(t: DamlType): string {
    switch (t.kind) {
      case 'var':
        return typeVariable(t.name);
      case 'con': {
        const target = this.decls.dataType(t.tycon);
        if (target.definition.kind === 'interface') throw new Error(`interface ${t.tycon.name} used as a value type`);
        const name = this.qualified(t.tycon);
        const base = this.decls.isTemplate(t.tycon) ? `${name}.schema` : name;
        const expr = t.args.length === 0 ? base : `${base}(${t.args.map((a) => this.schema(a)).join(', ')})`;
        return this.isLocal(t.tycon) ? `d.lazy(() => ${expr})` : expr;
      }
      case 'builtin':
        return this.builtinSchema(t);
      default:
        throw new Error(`a ${t.kind} type in a serializable position`);
    }
  }

  private builtinSchema(t: Extract<DamlType, { kind: 'builtin' }>): string {
    const arg = (i: number): DamlType => {
      const a = t.args[i];
      if (a === undefined) throw new Error(`${t.builtin} without its argument ${i}`);
      return a;
    };
    switch (t.builtin) {
      case 'Unit': return 'd.unit';
      case 'Bool': return 'd.bool';
      case 'Int64': return 'd.int64';
      case 'Date': return 'd.date';
      case 'Timestamp': return 'd.timestamp';
      case 'Numeric': {
        const scale = arg(0);
        if (scale.kind !== 'nat') throw new Error('a Numeric without a fixed scale in a serializable position');
        return `d.numeric(${scale.value})`;
      }
      case 'Party': return 'd.party';
      case 'Text': return 'd.text';
      case 'ContractId': return `d.contractId<${this.type(arg(0))}>()`;
      case 'List': return `d.list(${this.schema(arg(0))})`;
      case 'TextMap': return `d.textMap(${this.schema(arg(0))})`;
      case 'GenMap': return `d.genMap(${this.schema(arg(0))}, ${this.schema(arg(1))})`;
      case 'Optional': {
        const { depth, inner } = optionalStack(t);
        if (depth === 1) return `d.optional(${this.schema(inner)})`;
        let s = this.schema(inner);
        for (let i = 0; i < depth; i++) s = `d.optionalLevel(${s})`;
        return s;
      }
      default:
        throw new Error(`builtin ${t.builtin} in a serializable position`);
    }
  }

  /** `{ name: <render(type)><terminator> ... }`, one field a line. */
  private recordBody(fields: readonly { name: string; type: DamlType }[], render: (t: DamlType) => string, terminator: ';' | ','): string {
    if (fields.length === 0) return '{}';
    return `{\n${fields.map((f) => `  ${propertyKey(f.name)}: ${render(f.type)}${terminator}`).join('\n')}\n}`;
  }

  private dataTypeText(d: DamlDataType, template: DamlTemplate | undefined): string {
    const name = entityIdentifier(d.name);
    const params = d.params.map(typeVariable);
    const generic = params.length === 0 ? '' : `<${params.join(', ')}>`;
    const typeName = `${name}${generic}`;
    const def = d.definition;
    const lines: string[] = [];
    const doc = (what: string): string => `/** ${what} \`${this.module.name}:${d.name}\`${d.params.length > 0 ? ` (type parameters ${d.params.join(', ')})` : ''}. */`;
    let schemaBody: string;
    switch (def.kind) {
      case 'record':
        lines.push(doc(template === undefined ? 'Record' : 'Payload of the template'), `export type ${typeName} = ${this.recordBody(def.fields, (t) => this.type(t), ';')};`);
        schemaBody = `d.record<${typeName}>(${this.recordBody(def.fields, (t) => this.schema(t), ',')})`;
        break;
      case 'variant':
        lines.push(
          doc('Variant'),
          `export type ${typeName} =${def.constructors.length === 0 ? ' never' : ''}\n${def.constructors.map((c) => `  | { readonly tag: ${quote(c.name)}; readonly value: ${this.type(c.type)} }`).join('\n')};`,
        );
        schemaBody = `d.variantOf<${typeName}>({${def.constructors.length === 0 ? '' : `\n${def.constructors.map((c) => `  ${propertyKey(c.name)}: ${this.schema(c.type)},`).join('\n')}\n`}})`;
        break;
      case 'enum':
        lines.push(doc('Enum'), `export type ${typeName} = ${def.constructors.length === 0 ? 'never' : def.constructors.map(quote).join(' | ')};`);
        schemaBody = `d.enumeration<${typeName}>([${def.constructors.map(quote).join(', ')}])`;
        break;
      case 'interface':
        return '';
    }
    if (template !== undefined) {
      lines.push(this.templateText(template, typeName, schemaBody));
    } else if (params.length === 0) {
      lines.push(`export const ${name}: d.Schema<${name}> = ${schemaBody};`);
    } else {
      lines.push(`export const ${name} = ${generic}(${params.map((p) => `${p}: d.Schema<${p}>`).join(', ')}): d.Schema<${typeName}> =>\n  ${schemaBody.replace(/\n/g, '\n  ')};`);
    }
    return lines.join('\n');
  }

  private choicesText(choices: readonly DamlChoice[], ownerId: string): { type: string; value: string } {
    const type = `{\n${choices.map((c) => `    readonly ${propertyKey(c.name)}: d.Choice<${this.type(c.argument)}, ${this.type(c.result)}>;`).join('\n')}\n  }`;
    const value = `{\n${choices
      .map(
        (c) =>
          `    ${propertyKey(c.name)}: d.choice<${this.type(c.argument)}, ${this.type(c.result)}>({ name: ${quote(c.name)}, consuming: ${c.consuming}, templateId: ${quote(ownerId)}, argument: ${this.schema(c.argument)}, result: ${this.schema(c.result)} }),`,
      )
      .join('\n')}\n  }`;
    return { type, value };
  }

  private templateText(t: DamlTemplate, typeName: string, schemaBody: string): string {
    const ref: TypeConRef = { packageId: this.pkg.id, module: this.module.name, name: t.name };
    const choices = this.choicesText(t.choices, this.decls.id(ref));
    const name = entityIdentifier(t.name);
    return [
      `/** Template \`${this.module.name}:${t.name}\`: \`${name}.create(payload)\`, \`${name}.exercise(choice, contractId, argument)\`, \`${name}.schema\`, \`${name}.choices\`. */`,
      `export const ${name}: d.Template<${typeName}, ${choices.type}> = d.template({`,
      `  packageId: ${quote(this.pkg.id)},`,
      `  packageName: ${quote(this.pkg.name)},`,
      `  moduleName: ${quote(this.module.name)},`,
      `  entityName: ${quote(t.name)},`,
      `  schema: ${schemaBody.replace(/\n/g, '\n  ')},`,
      `  choices: ${choices.value},`,
      `  implements: [${t.implements.map((i) => quote(this.decls.id(i))).join(', ')}],`,
      `});`,
    ].join('\n');
  }

  private interfaceText(i: DamlInterface): string {
    const ref: TypeConRef = { packageId: this.pkg.id, module: this.module.name, name: i.name };
    const id = this.decls.id(ref);
    const name = entityIdentifier(i.name);
    const choices = this.choicesText(i.choices, id);
    const view = this.type(i.view);
    return [
      `/** Interface \`${this.module.name}:${i.name}\` (the type is its marker, for \`ContractId<${name}>\`). */`,
      `export type ${name} = d.InterfaceType<${quote(id)}>;`,
      `/** Interface \`${this.module.name}:${i.name}\`: \`${name}.viewSchema\`, \`${name}.choices\`, \`${name}.exercise(choice, contractId, argument)\`. */`,
      `export const ${name}: d.Interface<${name}, ${view}, ${choices.type}> = d.damlInterface({`,
      `  packageId: ${quote(this.pkg.id)},`,
      `  packageName: ${quote(this.pkg.name)},`,
      `  moduleName: ${quote(this.module.name)},`,
      `  entityName: ${quote(i.name)},`,
      `  viewSchema: ${this.schema(i.view)},`,
      `  choices: ${choices.value},`,
      `});`,
    ].join('\n');
  }

  /** The file's text, or undefined when the module declares nothing serializable. */
  text(runtimeModule: string): string | undefined {
    const templates = new Map(this.module.templates.map((t) => [t.name, t]));
    const parts: string[] = [];
    for (const d of this.module.dataTypes) {
      if (!d.serializable || d.definition.kind === 'interface') continue;
      parts.push(this.dataTypeText(d, templates.get(d.name)));
    }
    for (const i of this.module.interfaces) parts.push(this.interfaceText(i));
    if (parts.length === 0) return undefined;
    const self = this.fileOf(this.pkg.id, this.module.name);
    const imports = [...this.imports]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([file, alias]) => {
        let rel = posix.relative(posix.dirname(self), file).replace(/\.ts$/, '.js');
        if (!rel.startsWith('.')) rel = `./${rel}`;
        return `import * as ${alias} from ${quote(rel)};`;
      });
    return [
      `// Generated by ledger-rx codegen from ${this.pkg.name} ${this.pkg.version} (package ${this.pkg.id}), module ${this.module.name}. Do not edit.`,
      `import * as d from ${quote(runtimeModule)};`,
      ...imports,
      '',
      parts.join('\n\n'),
      '',
    ].join('\n');
  }
}

function optionalStack(t: DamlType): { depth: number; inner: DamlType } {
  let depth = 0;
  let inner = t;
  while (inner.kind === 'builtin' && inner.builtin === 'Optional' && inner.args[0] !== undefined) {
    depth += 1;
    inner = inner.args[0];
  }
  return { depth, inner };
}

/**
 * Generates TypeScript for the main package of each DAR and every package it needs (docs/typed-templates.md):
 * one file per Daml module at `<package-dir>/<Module/Path>.ts` and `<package-dir>/index.ts`, in a fixed order,
 * with nothing in them that depends on the time or the machine, so the same DARs always give the same bytes.
 * Throws a `DarError` when a package refers to one that none of the DARs holds.
 */
export function generateTypeScript(dars: readonly Dar[], options: GenerateOptions = {}): GeneratedFile[] {
  const runtimeModule = options.runtimeModule ?? 'ledger-rx/daml';
  const packages = packageClosure(dars);
  const dirs = packageDirectories(packages);
  const decls = new Declarations(new Map(packages.map((p) => [p.id, p])));
  const fileOf = (packageId: string, module: string): string => `${dirs.get(packageId)!}/${module.split('.').join('/')}.ts`;
  const files: GeneratedFile[] = [];
  for (const pkg of packages) {
    const modules: string[] = [];
    for (const m of pkg.modules) {
      const text = new ModuleWriter(pkg, m, decls, fileOf).text(runtimeModule);
      if (text === undefined) continue;
      files.push({ path: fileOf(pkg.id, m.name), content: text });
      modules.push(m.name);
    }
    modules.sort();
    const index = [
      `// Generated by ledger-rx codegen: package ${pkg.name} ${pkg.version} (${pkg.id}), Daml-LF ${pkg.lfVersion}. Do not edit.`,
      ...modules.map((m) => `export * as ${m.replace(/\./g, '_')} from ${quote(`./${m.split('.').join('/')}.js`)};`),
      `/** The package id of ${pkg.name} ${pkg.version}. */`,
      `export const packageId = ${quote(pkg.id)};`,
      '',
    ].join('\n');
    files.push({ path: `${dirs.get(pkg.id)!}/index.ts`, content: index });
  }
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
