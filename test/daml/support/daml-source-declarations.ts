/**
 * A small reader of Daml source declarations, for tests: the templates (fields, choices with their argument
 * fields and result types), interfaces (view type, choices) and data types a `.daml` file declares, with every
 * type written in one normal form that {@link lfTypeText} also produces from the package model. It handles the
 * layout the DARs in ../shared/dars use (damlc's `with`/`where` blocks, `data X = X with ...`, variants with `|`),
 * not all of Daml.
 */
import type { DamlType } from '../../../src/daml/index.js';

export interface SourceField { readonly name: string; readonly type: string }
export interface SourceChoice { readonly name: string; readonly consuming: boolean; readonly fields: readonly SourceField[]; readonly result: string }
export interface SourceTemplate { readonly name: string; readonly fields: readonly SourceField[]; readonly choices: readonly SourceChoice[] }
export interface SourceInterface { readonly name: string; readonly view: string; readonly choices: readonly SourceChoice[] }
export type SourceDataType =
  | { readonly kind: 'record'; readonly name: string; readonly fields: readonly SourceField[] }
  | { readonly kind: 'variant'; readonly name: string; readonly constructors: readonly SourceField[] }
  | { readonly kind: 'enum'; readonly name: string; readonly constructors: readonly string[] };
export interface SourceModule {
  readonly name: string;
  readonly templates: readonly SourceTemplate[];
  readonly interfaces: readonly SourceInterface[];
  readonly dataTypes: readonly SourceDataType[];
}

const builtins: Record<string, string> = { Int: 'Int64', Decimal: 'Numeric 10', Time: 'Timestamp', Map: 'GenMap', '()': 'Unit' };

/** Normal form of a Daml surface type: builtins by LF name, constructors by unqualified name (a
 * variant's record constructor as `Variant.Ctor`), `[a]` as `List a`, tuples as `TupleN`. */
export function sourceTypeText(text: string): string {
  const tokens = text.match(/[A-Za-z_][\w.']*|\d+|\(\)|[()[\],]/g) ?? [];
  let i = 0;
  type T = { head: string; args: T[] };
  const atom = (): T => {
    const t = tokens[i++];
    if (t === undefined) throw new Error(`type '${text}' ends early`);
    if (t === '[') {
      const inner = app();
      i++; // ]
      return { head: 'List', args: [inner] };
    }
    if (t === '(') {
      const items = [app()];
      while (tokens[i] === ',') {
        i++;
        items.push(app());
      }
      i++; // )
      return items.length === 1 ? items[0]! : { head: `Tuple${items.length}`, args: items };
    }
    const name = t.includes('.') ? t.slice(t.lastIndexOf('.') + 1) : t;
    return { head: builtins[name] ?? name, args: [] };
  };
  const app = (): T => {
    const head = atom();
    const args: T[] = [];
    while (i < tokens.length && tokens[i] !== ')' && tokens[i] !== ']' && tokens[i] !== ',') args.push(atom());
    return args.length === 0 ? head : { head: head.head, args: [...head.args, ...args] };
  };
  const render = (t: T): string => [t.head, ...t.args.map((a) => (a.args.length > 0 || a.head.includes(' ') ? `(${render(a)})` : render(a)))].join(' ');
  return render(app());
}

/** The same normal form from the package model. */
export function lfTypeText(type: DamlType): string {
  const wrap = (t: DamlType): string => {
    const s = lfTypeText(t);
    return s.includes(' ') ? `(${s})` : s;
  };
  switch (type.kind) {
    case 'builtin':
      if (type.builtin === 'Numeric') return `Numeric ${type.args[0]?.kind === 'nat' ? type.args[0].value : '?'}`;
      return [type.builtin, ...type.args.map(wrap)].join(' ');
    case 'con': {
      return [type.tycon.name, ...type.args.map(wrap)].join(' ');
    }
    case 'var':
      return [type.name, ...type.args.map(wrap)].join(' ');
    case 'nat':
      return String(type.value);
    default:
      return `<${type.what}>`;
  }
}

const stripComment = (line: string): string => line.replace(/(^|\s)--.*$/, '').replace(/\s+$/, '');
const indentOf = (line: string): number => line.length - line.trimStart().length;

/** `name : Type` lines (or `;`-separated) into fields. */
function fieldsOf(text: string): SourceField[] {
  return text
    .split(/[\n;]/)
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map((s) => {
      const m = /^(\w+)\s*:\s*(.+)$/.exec(s);
      if (!m) throw new Error(`not a field: '${s}'`);
      return { name: m[1]!, type: sourceTypeText(m[2]!) };
    });
}

/** The lines after `start` that are indented deeper than `indent`. */
function blockAfter(lines: readonly string[], start: number, indent: number): { lines: string[]; end: number } {
  const out: string[] = [];
  let i = start;
  for (; i < lines.length; i++) {
    const l = lines[i]!;
    if (l.trim() === '') continue;
    if (indentOf(l) <= indent) break;
    out.push(l);
  }
  return { lines: out, end: i };
}

function choicesIn(lines: readonly string[]): SourceChoice[] {
  const choices: SourceChoice[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = /^(\s*)(nonconsuming\s+|preconsuming\s+|postconsuming\s+)?choice\s+(\w+)\s*:\s*(.+)$/.exec(lines[i]!);
    if (!m) continue;
    const indent = m[1]!.length;
    let fields: SourceField[] = [];
    const next = lines.slice(i + 1).findIndex((l) => l.trim() !== '');
    const withLine = next < 0 ? undefined : i + 1 + next;
    if (withLine !== undefined && lines[withLine]!.trim() === 'with' && indentOf(lines[withLine]!) > indent) {
      const block = blockAfter(lines, withLine + 1, indentOf(lines[withLine]!));
      fields = fieldsOf(block.lines.join('\n'));
    }
    choices.push({ name: m[3]!, consuming: m[2] === undefined || !m[2].startsWith('nonconsuming'), fields, result: sourceTypeText(m[4]!) });
  }
  return choices;
}

function dataTypeOf(text: string): SourceDataType {
  const m = /^data\s+(\w+)\s*=\s*([\s\S]*)$/.exec(text.replace(/\n\s*deriving[\s\S]*$/, ''));
  if (!m) throw new Error(`not a data declaration: ${text.slice(0, 60)}`);
  const name = m[1]!;
  const alternatives = m[2]!.split(/\n?\s*\|\s*/).map((s) => s.trim()).filter((s) => s !== '');
  const ctors = alternatives.map((alt) => {
    const w = /^(\w+)(?:\s+with\b([\s\S]*))?$/.exec(alt);
    if (w) return { name: w[1]!, fields: w[2] === undefined ? undefined : fieldsOf(w[2]) };
    const p = /^(\w+)\s+([\s\S]+)$/.exec(alt);
    if (!p) throw new Error(`constructor '${alt}'`);
    return { name: p[1]!, positional: sourceTypeText(p[2]!) };
  });
  const only = ctors[0];
  if (ctors.length === 1 && only !== undefined && 'fields' in only && only.fields !== undefined) return { kind: 'record', name, fields: only.fields };
  if (ctors.every((c) => 'fields' in c && c.fields === undefined)) return { kind: 'enum', name, constructors: ctors.map((c) => c.name) };
  return {
    kind: 'variant',
    name,
    constructors: ctors.map((c) => ({
      name: c.name,
      type: 'positional' in c ? c.positional! : c.fields === undefined ? 'Unit' : `${name}.${c.name}`,
    })),
  };
}

/** The declarations of one `.daml` file. */
export function parseDamlSource(source: string): SourceModule {
  const lines = source.split('\n').map(stripComment);
  const moduleName = /^module\s+([\w.]+)/m.exec(source)?.[1];
  if (moduleName === undefined) throw new Error('no module header');
  const templates: SourceTemplate[] = [];
  const interfaces: SourceInterface[] = [];
  const dataTypes: SourceDataType[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (indentOf(line) !== 0 || line === '') continue;
    const block = blockAfter(lines, i + 1, 0);
    const t = /^template\s+(\w+)\s*$/.exec(line);
    if (t) {
      const withAt = block.lines.findIndex((l) => l.trim() === 'with');
      const whereAt = block.lines.findIndex((l) => l.trim() === 'where');
      const fields = fieldsOf(block.lines.slice(withAt + 1, whereAt).join('\n'));
      templates.push({ name: t[1]!, fields, choices: choicesIn(block.lines.slice(whereAt + 1)) });
      continue;
    }
    const itf = /^interface\s+(\w+)\s+where\s*(.*)$/.exec(line);
    if (itf) {
      const all = [itf[2]!, ...block.lines].join('\n');
      const view = /viewtype\s+(\w+)/.exec(all)?.[1];
      if (view === undefined) throw new Error(`interface ${itf[1]} without a viewtype`);
      interfaces.push({ name: itf[1]!, view, choices: choicesIn(block.lines) });
      continue;
    }
    if (/^data\s/.test(line)) dataTypes.push(dataTypeOf([line, ...block.lines].join('\n')));
  }
  return { name: moduleName, templates, interfaces, dataTypes };
}
