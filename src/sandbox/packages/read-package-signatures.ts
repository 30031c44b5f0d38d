import type { LfBuiltin, LfDataType, LfField, LfType } from '../state/lf-type.js';
import type { ChoiceDef, InterfaceDef, TemplateDef } from '../state/package-store.js';
import { protoFields, repeatedInts, type ProtoField } from './proto-fields.js';

/** What the sandbox reads of a package's declarations: its data types, templates and interfaces. */
export interface PackageSignatures {
  /** Data types by qualified name (`Module:Name`, `Outcome.Win` for a variant's record constructor). */
  readonly dataTypes: ReadonlyMap<string, LfDataType>;
  readonly templates: readonly TemplateDef[];
  readonly interfaces: readonly InterfaceDef[];
}

/** Thrown on a malformed declaration; `read-dar.ts` turns it into `DAR_PARSE_ERROR`. */
export class MalformedPackage extends Error {
  override name = 'MalformedPackage';
}

/** `BuiltinType` numbers of daml_lf2.proto that serializable values use (TextMap: 19, 1001 in the frozen 2.1 proto). */
const builtins: ReadonlyMap<number, LfBuiltin> = new Map<number, LfBuiltin>([
  [0, 'Unit'], [1, 'Bool'], [2, 'Int64'], [3, 'Date'], [4, 'Timestamp'], [5, 'Numeric'], [6, 'Party'], [7, 'Text'],
  [8, 'ContractId'], [9, 'Optional'], [10, 'List'], [11, 'GenMap'], [19, 'TextMap'], [1001, 'TextMap'],
]);

/** Type nesting a real archive never approaches (interning keeps types shallow); deeper is hostile. */
const maxTypeDepth = 256;

function message(bytes: number | Uint8Array | undefined, what: string): ProtoField[] {
  if (bytes === undefined) return [];
  if (typeof bytes === 'number') throw new MalformedPackage(`${what}: a number where a message belongs`);
  const fields = protoFields(bytes);
  if (!fields) throw new MalformedPackage(`${what} is not a valid protobuf message`);
  return fields;
}

function last(fields: readonly ProtoField[], field: number): number | Uint8Array | undefined {
  let v: number | Uint8Array | undefined;
  for (const f of fields) if (f.field === field) v = f.value;
  return v;
}

function all(fields: readonly ProtoField[], field: number): (number | Uint8Array)[] {
  return fields.filter((f) => f.field === field).map((f) => f.value);
}

function int(fields: readonly ProtoField[], field: number): number {
  const v = last(fields, field);
  if (v === undefined) return 0;
  if (typeof v !== 'number') throw new MalformedPackage(`field ${field}: bytes where a number belongs`);
  return v;
}

/**
 * Reads the declarations of a Daml-LF 2 `Package` (docs/sandbox.md#typed-creates): the interning tables
 * (strings, dotted names, types — an interned type refers only to earlier entries, so the table decodes front
 * to back), then per module its data types, templates (choices with their argument type and consuming flag,
 * implemented interfaces) and interfaces (choices, view type). Expressions are never parsed: their fields are
 * skipped as opaque bytes. Throws {@link MalformedPackage} on anything malformed.
 */
export function readPackageSignatures(packageId: string, pkg: readonly ProtoField[], strings: readonly string[]): PackageSignatures {
  const str = (i: number): string => {
    const s = strings[i];
    if (s === undefined) throw new MalformedPackage(`interned string ${i} out of range`);
    return s;
  };
  const dnames = all(pkg, 3).map((b) => {
    const segments = repeatedInts(message(b, 'an interned dotted name'), 1);
    if (!segments || segments.length === 0) throw new MalformedPackage('a malformed interned dotted name');
    return segments.map(str).join('.');
  });
  const dname = (i: number): string => {
    const s = dnames[i];
    if (s === undefined) throw new MalformedPackage(`interned dotted name ${i} out of range`);
    return s;
  };
  const tycon = (bytes: number | Uint8Array | undefined): { packageId: string; qualifiedName: string } => {
    const id = message(bytes, 'a type constructor');
    const moduleId = message(last(id, 1), 'a module reference');
    const pkgRef = message(last(moduleId, 1), 'a package reference');
    let ref: string | undefined;
    for (const f of pkgRef) {
      if (f.field === 1) ref = packageId;
      else if (f.field === 3 && typeof f.value === 'number') ref = str(f.value);
      else if (f.field === 4) throw new MalformedPackage('package_import_id (Daml-LF 2.2 and later) in a 2.1 package');
    }
    if (ref === undefined) throw new MalformedPackage('a package reference without a package');
    return { packageId: ref, qualifiedName: `${dname(int(moduleId, 2))}:${dname(int(id, 2))}` };
  };
  const interned: LfType[] = [];
  const type = (bytes: number | Uint8Array | undefined, depth: number): LfType => {
    if (depth > maxTypeDepth) throw new MalformedPackage(`a type nested deeper than ${maxTypeDepth}`);
    const fields = message(bytes, 'a type');
    const f = fields.at(-1);
    if (!f) throw new MalformedPackage('an empty type');
    const args = (body: readonly ProtoField[]) => all(body, 2).map((a) => type(a, depth + 1));
    switch (f.field) {
      case 1: {
        const body = message(f.value, 'a type variable');
        return { kind: 'var', name: str(int(body, 3)) };
      }
      case 2: {
        const body = message(f.value, 'a type constructor application');
        return { kind: 'con', ...tycon(last(body, 1)), args: args(body) };
      }
      case 3: {
        const body = message(f.value, 'a builtin type');
        const code = int(body, 1);
        const builtin = builtins.get(code);
        return builtin === undefined ? { kind: 'other', what: `builtin ${code}` } : { kind: 'builtin', builtin, args: args(body) };
      }
      case 6: {
        if (typeof f.value !== 'number') throw new MalformedPackage('a Numeric scale that is not a number');
        const value = f.value % 2 === 0 ? f.value / 2 : -(f.value + 1) / 2; // sint64: zigzag
        if (value < 0 || value > 37) throw new MalformedPackage(`a Numeric scale of ${value}`);
        return { kind: 'nat', value };
      }
      case 8: {
        if (typeof f.value !== 'number') throw new MalformedPackage('an interned type index that is not a number');
        const t = interned[f.value];
        if (t === undefined) throw new MalformedPackage(`interned type ${f.value} out of range`);
        return t;
      }
      default:
        return { kind: 'other', what: `type field ${f.field}` };
    }
  };
  for (const b of all(pkg, 5)) interned.push(type(b, 0));

  const fieldWithType = (bytes: number | Uint8Array): LfField => {
    const f = message(bytes, 'a field');
    return { name: str(int(f, 3)), type: type(last(f, 2), 0) };
  };
  const choice = (bytes: number | Uint8Array): [string, ChoiceDef] => {
    const c = message(bytes, 'a choice');
    const binder = message(last(c, 6), 'a choice argument');
    return [str(int(c, 2)), { consuming: int(c, 3) !== 0, argument: type(last(binder, 2), 0) }];
  };

  const dataTypes = new Map<string, LfDataType>();
  const templates: TemplateDef[] = [];
  const interfaces: InterfaceDef[] = [];
  for (const m of all(pkg, 1)) {
    const mod = message(m, 'a module');
    const moduleName = dname(int(mod, 1));
    for (const d of all(mod, 4)) {
      const dt = message(d, 'a data type');
      const params = all(dt, 3).map((p) => str(int(message(p, 'a type parameter'), 3)));
      const def = dt.find((f) => f.field >= 5 && f.field <= 8);
      let data: LfDataType;
      if (def?.field === 5) data = { params, kind: 'record', fields: all(message(def.value, 'a record'), 1).map(fieldWithType) };
      else if (def?.field === 6) data = { params, kind: 'variant', constructors: all(message(def.value, 'a variant'), 1).map(fieldWithType) };
      else if (def?.field === 7) {
        const codes = repeatedInts(message(def.value, 'an enum'), 2);
        if (!codes) throw new MalformedPackage('a malformed enum');
        data = { params, kind: 'enum', constructors: codes.map(str) };
      } else if (def?.field === 8) data = { params, kind: 'interface' };
      else throw new MalformedPackage('a data type without a definition');
      dataTypes.set(`${moduleName}:${dname(int(dt, 2))}`, data);
    }
    for (const t of all(mod, 6)) {
      const tpl = message(t, 'a template');
      const entity = dname(int(tpl, 1));
      templates.push({
        module: moduleName,
        entity,
        choices: Object.fromEntries(all(tpl, 6).map(choice)),
        implements: all(tpl, 10).map((i) => tycon(last(message(i, 'an interface instance'), 1)).qualifiedName),
        payload: { packageId, qualifiedName: `${moduleName}:${entity}` },
      });
    }
    for (const i of all(mod, 8)) {
      const iface = message(i, 'an interface');
      interfaces.push({
        module: moduleName,
        entity: dname(int(iface, 2)),
        choices: Object.fromEntries(all(iface, 5).map(choice)),
        viewFields: [],
        view: type(last(iface, 6), 0),
      });
    }
  }
  return { dataTypes, templates, interfaces };
}
