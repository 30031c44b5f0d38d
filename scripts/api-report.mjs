// The API report: for every entry point of package.json's `exports`, the names it exports, sorted, each with
// its declaration as the published .d.ts states it (comments removed), and the types its declarations name
// that the entry point does not export. One file per entry point under api/ (`api/ledger-rx.api.md`,
// `api/ledger-rx-filters.api.md`...), checked in: a change of the public surface is a change of these files,
// and shows in review. Read from dist/ (build first); see docs/packaging.md.
//
//     node scripts/api-report.mjs            check: exit 1 when a report differs from the code (npm run api:check)
//     node scripts/api-report.mjs --update   rewrite the reports (npm run api:update)
//     node scripts/api-report.mjs --reports DIR   compare with (or write) the reports in DIR instead of api/
//
// It is what @microsoft/api-extractor's report would give, written with the TypeScript compiler API of the
// project's own TypeScript: api-extractor bundles its own compiler (6.0 for 7.60) and takes one run per
// entry point.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const args = process.argv.slice(2);
const update = args.includes('--update');
const reportsAt = args.includes('--reports') ? resolve(args[args.indexOf('--reports') + 1] ?? '') : join(root, 'api');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/** `.` → `ledger-rx`, `./filters` → `ledger-rx/filters`, with the published declarations of each. */
const entries = Object.entries(pkg.exports)
  .filter(([, target]) => typeof target === 'object' && typeof target.types === 'string')
  .map(([subpath, target]) => ({
    specifier: subpath === '.' ? pkg.name : `${pkg.name}/${subpath.slice(2)}`,
    types: join(root, target.types),
  }));
for (const entry of entries) {
  if (!existsSync(entry.types)) {
    process.stderr.write(`api-report: ${relative(root, entry.types)} is missing: run npm run build first\n`);
    process.exit(2);
  }
}

const program = ts.createProgram(
  entries.map((e) => e.types),
  { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2023, strict: true, noEmit: true, types: ['node'] },
);
const checker = program.getTypeChecker();
const printer = ts.createPrinter({ removeComments: true, newLine: ts.NewLineKind.LineFeed });
const dist = join(root, 'dist');
const ours = (declaration) => resolve(declaration.getSourceFile().fileName).startsWith(dist);
const byName = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

/** Follows an export's alias chain to its declarations; `typeOnly` when a link of the chain is `export type`. */
function resolveExport(symbol) {
  let typeOnly = false;
  let current = symbol;
  while (current.flags & ts.SymbolFlags.Alias) {
    for (const d of current.declarations ?? []) {
      if ((ts.isExportSpecifier(d) || ts.isImportSpecifier(d)) && (d.isTypeOnly || d.parent.parent.isTypeOnly)) typeOnly = true;
    }
    const next = checker.getImmediateAliasedSymbol(current);
    if (next === undefined || next === current) break;
    current = next;
  }
  return { target: current, typeOnly };
}

const typeMeaning = (d) => ts.isTypeAliasDeclaration(d) || ts.isInterfaceDeclaration(d) || ts.isClassDeclaration(d) || ts.isEnumDeclaration(d);

/** The declaration's text as published, without comments; a variable as `declare const name: type`. */
function declarationText(declaration) {
  const file = declaration.getSourceFile();
  if (ts.isVariableDeclaration(declaration)) {
    const list = declaration.parent;
    const keyword = list.flags & ts.NodeFlags.Const ? 'const' : list.flags & ts.NodeFlags.Let ? 'let' : 'var';
    const type = declaration.type ? printer.printNode(ts.EmitHint.Unspecified, declaration.type, file) : 'unknown';
    return `declare ${keyword} ${declaration.name.getText(file)}: ${type};`;
  }
  return printer.printNode(ts.EmitHint.Unspecified, declaration, file).replace(/^export /, '').replace(/^declare (?!function|class|const|let|var|enum|namespace|module|global)/, '');
}

/** The types of this package that the declarations name (type references, `extends`/`implements`), resolved. */
function referencedTypes(declarations) {
  const found = new Set();
  const visit = (node) => {
    const name = ts.isTypeReferenceNode(node) ? node.typeName : ts.isExpressionWithTypeArguments(node) ? node.expression : ts.isTypeQueryNode(node) ? node.exprName : undefined;
    if (name !== undefined) {
      let leftmost = name; // `typeof ErrorCodes.X`, `ns.Type`: the name a reader looks for is the leftmost one
      while (ts.isQualifiedName(leftmost) || ts.isPropertyAccessExpression(leftmost)) leftmost = ts.isQualifiedName(leftmost) ? leftmost.left : leftmost.expression;
      let symbol = checker.getSymbolAtLocation(leftmost);
      if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
      if (symbol && (symbol.declarations ?? []).some(ours) && !(symbol.flags & ts.SymbolFlags.TypeParameter)) found.add(symbol);
    }
    ts.forEachChild(node, visit);
  };
  for (const d of declarations) visit(d);
  return found;
}

/** The names an entry point's declarations export, sorted. */
function exportsOf(entry) {
  const file = program.getSourceFile(entry.types);
  const module = file ? checker.getSymbolAtLocation(file) : undefined;
  if (!module) throw new Error(`api-report: no module in ${entry.types}`);
  return checker.getExportsOfModule(module).sort((a, b) => byName(a.name, b.name));
}

/** Where each declared symbol is exported: the first entry point (in the order of the exports map). */
const exportedFrom = new Map();
for (const entry of entries) {
  for (const symbol of exportsOf(entry)) {
    const { target } = resolveExport(symbol);
    if (!exportedFrom.has(target)) exportedFrom.set(target, entry.specifier);
  }
}

/** One entry point's report, and the names it exports without documentation. */
function report(entry) {
  const exported = exportsOf(entry);
  const targets = new Set();
  const sections = [];
  const undocumented = [];
  const referenced = new Set();
  for (const symbol of exported) {
    const { target, typeOnly } = resolveExport(symbol);
    targets.add(target);
    const declarations = (target.declarations ?? []).filter((d) => !typeOnly || typeMeaning(d));
    for (const r of referencedTypes(declarations)) referenced.add(r);
    if (ts.displayPartsToString(target.getDocumentationComment(checker)).trim() === '') undocumented.push(`${entry.specifier}: ${symbol.name}`);
    const hidden = typeOnly && (target.flags & ts.SymbolFlags.Value) !== 0; // `export type` of a name that is also a value
    const heading = `${symbol.name}${symbol.name === target.name ? '' : ` (declared as ${target.name})`}${hidden ? ' (its type only)' : ''}`;
    sections.push(`// ${heading}\n${declarations.map(declarationText).join('\n')}`);
  }
  const forgotten = [...referenced]
    .filter((s) => !targets.has(s))
    .map((s) => `- \`${s.name}\`${exportedFrom.has(s) ? ` (exported from \`${exportedFrom.get(s)}\`)` : ' (exported nowhere)'}`)
    .sort(byName);
  const text = [
    `# API report: \`${entry.specifier}\``,
    '',
    `What \`${entry.specifier}\` exports (${exported.length} names), read from \`${relative(root, entry.types).split('\\').join('/')}\`. Written by`,
    '`npm run api:update`; `npm run api:check` and `npm test` fail while it differs from the code, so every change',
    'of the public surface shows here in review (docs/packaging.md).',
    '',
    '```ts',
    sections.join('\n\n'),
    '```',
    '',
    '## Named by these declarations, not exported here',
    '',
    forgotten.length === 0 ? '(none)' : forgotten.join('\n'),
    '',
  ].join('\n');
  return { name: `${entry.specifier.replace(/\//g, '-')}.api.md`, text, undocumented };
}

const reports = entries.map(report);
const undocumented = reports.flatMap((r) => r.undocumented);
if (update) {
  mkdirSync(reportsAt, { recursive: true });
  for (const r of reports) writeFileSync(join(reportsAt, r.name), r.text);
  const stale = readdirSync(reportsAt).filter((f) => f.endsWith('.api.md') && !reports.some((r) => r.name === f));
  for (const f of stale) process.stdout.write(`api-report: ${f} belongs to no entry point: delete it\n`);
  process.stdout.write(`api-report: wrote ${reports.length} reports to ${relative(root, reportsAt) || '.'}\n`);
} else {
  const problems = [];
  for (const r of reports) {
    const path = join(reportsAt, r.name);
    const checkedIn = existsSync(path) ? readFileSync(path, 'utf8') : undefined;
    if (checkedIn === undefined) problems.push(`${r.name}: missing (a new entry point?)`);
    else if (checkedIn !== r.text) {
      const before = checkedIn.split('\n');
      const after = r.text.split('\n');
      const removed = before.filter((l) => !after.includes(l)).slice(0, 20).map((l) => `  - ${l}`);
      const added = after.filter((l) => !before.includes(l)).slice(0, 20).map((l) => `  + ${l}`);
      problems.push(`${r.name}: differs from the code\n${[...removed, ...added].join('\n')}`);
    }
  }
  if (existsSync(reportsAt)) {
    for (const f of readdirSync(reportsAt).filter((f) => f.endsWith('.api.md') && !reports.some((r) => r.name === f))) problems.push(`${f}: belongs to no entry point`);
  }
  for (const u of undocumented) problems.push(`${u}: exported without a doc comment`);
  if (problems.length > 0) {
    process.stdout.write(`${problems.join('\n')}\n\napi-report: the public surface changed. Review it, then run npm run api:update and commit api/.\n`);
    process.exit(1);
  }
  process.stdout.write(`api-report: ${reports.length} reports match the code\n`);
}
