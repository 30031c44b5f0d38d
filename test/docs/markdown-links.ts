import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** One relative link of a Markdown file that does not resolve. */
export interface BrokenLink {
  readonly file: string;
  readonly line: number;
  readonly target: string;
  readonly reason: string;
}

/**
 * The text of a Markdown file without its fenced code blocks and inline code (links inside code are not
 * links), with line breaks kept so line numbers stay right.
 */
function withoutCode(markdown: string): string {
  let inFence = false;
  return markdown
    .split('\n')
    .map((line) => {
      if (/^\s*(```|~~~)/.test(line)) {
        inFence = !inFence;
        return '';
      }
      return inFence ? '' : line.replace(/`[^`]*`/g, (code) => ' '.repeat(code.length));
    })
    .join('\n');
}

/**
 * GitHub's anchor of a heading: lower case, markup and punctuation dropped (letters, digits, `-`, `_` and
 * spaces kept), spaces to `-`; a repeated heading gets `-1`, `-2`, ….
 */
export function headingSlug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .trim()
    .replace(/\s/g, '-');
}

/** The anchors a Markdown text defines: its headings' slugs and explicit `<a id="…">` / `<a name="…">`. */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let inFence = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    if (inFence) continue;
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      const slug = headingSlug(heading[1] as string);
      const n = seen.get(slug) ?? 0;
      seen.set(slug, n + 1);
      anchors.add(n === 0 ? slug : `${slug}-${n}`);
    }
    for (const m of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(m[1] as string);
  }
  return anchors;
}

/**
 * The relative links of the Markdown file `file` (inline `[text](target)` and `<a href>`) whose file does not
 * exist, or whose `#anchor` is not a heading or explicit anchor of the Markdown file it points to. Absolute
 * URLs (`http:`, `https:`, `mailto:`) are not checked.
 */
export function brokenLinks(file: string): BrokenLink[] {
  const markdown = readFileSync(file, 'utf8');
  const text = withoutCode(markdown);
  const broken: BrokenLink[] = [];
  const lines = text.split('\n');
  for (const [index, line] of lines.entries()) {
    const targets = [
      ...[...line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1] as string),
      ...[...line.matchAll(/<a\s+href="([^"]+)"/g)].map((m) => m[1] as string),
    ];
    for (const target of targets) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      const hash = target.indexOf('#');
      const path = hash === -1 ? target : target.slice(0, hash);
      const anchor = hash === -1 ? undefined : decodeURIComponent(target.slice(hash + 1));
      const resolved = path === '' ? file : resolve(dirname(file), decodeURIComponent(path));
      const report = (reason: string) => broken.push({ file, line: index + 1, target, reason });
      if (!existsSync(resolved)) {
        report('no such file');
        continue;
      }
      if (anchor === undefined) continue;
      if (statSync(resolved).isDirectory() || !resolved.endsWith('.md')) {
        report('an anchor into something that is not a Markdown file');
        continue;
      }
      if (!anchorsOf(readFileSync(resolved, 'utf8')).has(anchor)) report(`no heading or anchor "${anchor}"`);
    }
  }
  return broken;
}
