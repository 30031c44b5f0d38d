import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/shared-dir.js';

/**
 * The published surface is deliberate: every entry of the exports map lists its names one by one (no
 * `export *`), every name it exports (values and types) carries documentation in the published
 * declarations, and the library's internals stay out of it.
 */
const exportsMap = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { exports: Record<string, { types?: string } | string> }).exports;
const entries = Object.entries(exportsMap)
  .filter(([, target]) => typeof target === 'object' && target.types !== undefined)
  .map(([subpath, target]) => ({ subpath, types: join(repoRoot, (target as { types: string }).types) }));

/** Names that are implementation details: they must not be importable from any entry point. */
const internals = [
  'rememberElementText',
  'normalizeCantonErrorBody',
  'isCantonErrorBody',
  'toLedgerApiError',
  'parseRetryInfo',
  'httpStatusForGrpcCode',
  'retryDelay',
  'resolveRetryConfig',
  'ResolvedRetryConfig',
  'onPageFailure',
  'resumesAtOnce',
  'isListTooLarge',
  'statedListCap',
  'componentSchemas',
  'variant',
  'variantInfo',
  'wrapped',
  'lazySchema',
  'built',
  'updateCases',
  'eventCases',
  'reassignmentEventCases',
  'topologyEventCases',
  'contractEntryCases',
  'completionResponseCases',
  'checkPackageNameReference',
  'parseCheckpoint',
  'elementOrderCheck',
  'updateElementDecoder',
  'updateDecoding',
  'offsetOrderOf',
  'traceRequest',
  'newTraceparent',
];

/** Every name an entry's declarations export, and whether its declaration is documented. */
function exportedNames(): Map<string, { name: string; documented: boolean }[]> {
  const program = ts.createProgram(
    entries.map((e) => e.types),
    { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2023, strict: true, noEmit: true },
  );
  const checker = program.getTypeChecker();
  const result = new Map<string, { name: string; documented: boolean }[]>();
  for (const entry of entries) {
    const file = program.getSourceFile(entry.types);
    const module = file ? checker.getSymbolAtLocation(file) : undefined;
    if (!module) throw new Error(`no declarations for ${entry.subpath} at ${entry.types}: run npm run build`);
    result.set(
      entry.subpath,
      checker.getExportsOfModule(module).map((symbol) => {
        const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
        return { name: symbol.name, documented: ts.displayPartsToString(target.getDocumentationComment(checker)).trim() !== '' };
      }),
    );
  }
  return result;
}

describe('the public surface', () => {
  const surface = exportedNames();

  it('covers every entry of the exports map, each with names', () => {
    expect([...surface.keys()].sort()).toEqual(['.', './filters', './jetstream', './metrics', './operators', './postgres', './sandbox', './schemas', './sinks', './tracing']);
    for (const [subpath, names] of surface) expect(names.length, subpath).toBeGreaterThan(0);
  });

  it('lists its names one by one in every entry point (no export *)', () => {
    for (const { types } of entries) {
      const source = types.replace(/[/\\]dist[/\\]/, '/src/').replace(/\.d\.ts$/, '.ts');
      expect(readFileSync(source, 'utf8'), source).not.toMatch(/^export \*/m);
    }
  });

  it('documents every exported name', () => {
    const undocumented = [...surface].flatMap(([subpath, names]) => names.filter((n) => !n.documented).map((n) => `${subpath}: ${n.name}`));
    expect(undocumented).toEqual([]);
  });

  it('keeps the internals out of every entry point', () => {
    const leaked = [...surface].flatMap(([subpath, names]) => names.filter((n) => internals.includes(n.name)).map((n) => `${subpath}: ${n.name}`));
    expect(leaked).toEqual([]);
  });

  it('exports from the root what the filters and operators subpaths export, and the schemas', () => {
    const root = new Set(surface.get('.')?.map((n) => n.name));
    for (const subpath of ['./filters', './operators']) {
      expect(surface.get(subpath)?.map((n) => n.name).filter((n) => !root.has(n)), subpath).toEqual([]);
    }
    for (const name of ['createLedgerClient', 'tailUpdates', 'MemoryCheckpointStore', 'JsGetUpdatesResponse', 'GetUpdatesRequest', 'isUnknownVariant', 'elementText', 'LedgerApiError']) {
      expect(root.has(name), name).toBe(true);
    }
  });
});
