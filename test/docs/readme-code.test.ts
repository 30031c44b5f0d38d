import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/shared-dir.js';

/** The ```ts blocks of a Markdown text, with the line each starts on. */
function typeScriptBlocks(markdown: string): { line: number; code: string }[] {
  const blocks: { line: number; code: string }[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (!/^```(ts|typescript)\s*$/.test(lines[i] as string)) continue;
    const start = i + 1;
    let end = start;
    while (end < lines.length && !(lines[end] as string).startsWith('```')) end++;
    blocks.push({ line: start + 1, code: lines.slice(start, end).join('\n') });
    i = end;
  }
  return blocks;
}

/**
 * Type-checks `code` as a user's ES module of this package: `ledger-rx` and its subpaths resolve through the
 * package's own `exports` to the built declarations in dist/ (what `npm install ledger-rx` gives), strict,
 * with the repository's compiler options. Returns the diagnostics as text.
 */
function typeCheck(code: string, name: string): string[] {
  const configFile = ts.readConfigFile(join(repoRoot, 'tsconfig.json'), (p) => ts.sys.readFile(p));
  const { options } = ts.parseJsonConfigFileContent(configFile.config, ts.sys, repoRoot);
  const file = join(repoRoot, 'test', 'docs', name);
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (p) => p === file || fileExists.call(host, p);
  host.readFile = (p) => (p === file ? code : readFile.call(host, p));
  host.getSourceFile = (p, languageVersion, onError, shouldCreate) =>
    p === file ? ts.createSourceFile(p, code, languageVersion, true) : getSourceFile.call(host, p, languageVersion, onError, shouldCreate);
  const program = ts.createProgram({ rootNames: [file], options: { ...options, noEmit: true, noUnusedLocals: false }, host });
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file && d.start !== undefined ? `${d.file.fileName}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1}: ` : '';
    return `${where}${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
}

describe("README.md's TypeScript", () => {
  const blocks = typeScriptBlocks(readFileSync(join(repoRoot, 'README.md'), 'utf8'));

  it('has code to check', () => {
    expect(blocks.length).toBeGreaterThan(0);
  });

  for (const [index, block] of blocks.entries()) {
    it(`block ${index + 1} (line ${block.line}) compiles against the built package`, { timeout: 60_000 }, () => {
      expect(typeCheck(block.code, `readme-block-${index + 1}.ts`)).toEqual([]);
    });
  }

  it('the checker finds a misspelled export (it is not vacuous)', { timeout: 60_000 }, () => {
    const errors = typeCheck("import { tailUpdate } from 'ledger-rx';\nconsole.log(tailUpdate);\n", 'readme-block-bad.ts');
    expect(errors.join('\n')).toMatch(/tailUpdate/);
  });
});
