import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/shared-dir.js';
import { anchorsOf, brokenLinks, headingSlug } from './markdown-links.js';

const docsDir = join(repoRoot, 'docs');
const files = [
  join(repoRoot, 'README.md'),
  join(repoRoot, 'ARCHITECTURE.md'),
  join(repoRoot, 'benchmarks', 'README.md'),
  ...readdirSync(docsDir)
    .filter((name) => name.endsWith('.md'))
    .map((name) => join(docsDir, name)),
];

describe('relative links in README.md, ARCHITECTURE.md, benchmarks/README.md and docs/*.md', () => {
  for (const file of files) {
    it(`${file.slice(repoRoot.length + 1)}: every relative link and anchor resolves`, () => {
      expect(brokenLinks(file).map((b) => `${b.file.slice(repoRoot.length + 1)}:${b.line}: ${b.target} (${b.reason})`)).toEqual([]);
    });
  }
});

describe('the link checker', () => {
  it('makes anchors as GitHub does', () => {
    expect(headingSlug('How `auto` chooses')).toBe('how-auto-chooses');
    expect(headingSlug('Filters and the legacy filter/verbose rule')).toBe('filters-and-the-legacy-filterverbose-rule');
    expect(headingSlug('Metrics, health and alerts')).toBe('metrics-health-and-alerts');
    expect([...anchorsOf('# A\n## A\n<a id="x-y"></a>\n```\n# not a heading\n```\n')]).toEqual(['a', 'a-1', 'x-y']);
  });

  it('reports a missing file, a missing anchor and an anchor in the same file, and ignores code and URLs', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ledger-rx-links-'));
    try {
      writeFileSync(join(dir, 'other.md'), '# Other page\n\n## A section\n');
      writeFileSync(
        join(dir, 'page.md'),
        [
          '# Page',
          '[ok](other.md) [ok](other.md#a-section) [ok](#page) [ok](https://example.com/x#y)',
          '[gone](missing.md)',
          '[bad anchor](other.md#no-such-section)',
          '[bad local](#nowhere)',
          '`[in code](missing-in-code.md)`',
          '```',
          '[in a fence](missing-in-fence.md)',
          '```',
        ].join('\n'),
      );
      expect(brokenLinks(join(dir, 'page.md')).map((b) => [b.line, b.target])).toEqual([
        [3, 'missing.md'],
        [4, 'other.md#no-such-section'],
        [5, '#nowhere'],
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
