import type { VettedPackage, VettedPackages } from '../../schemas/vetting.js';

/**
 * The change between two vetting states of a participant, one line per package: `+ name version id
 * window` (newly vetted), `- …` (unvetted), `~ … old window → new window` (bounds changed). Returns
 * `["(no change)"]` when nothing changed. `before` is `null`/`undefined` when there was no state.
 */
export function diffVettedPackages(before: VettedPackages | null | undefined, after: VettedPackages): string[] {
  const window = (p: VettedPackage) => `${p.validFromInclusive ?? '-∞'} .. ${p.validUntilExclusive ?? '+∞'}`;
  const label = (p: VettedPackage) => `${p.packageName || '?'} ${p.packageVersion || '?'} ${p.packageId.slice(0, 12)}`;
  const old = new Map((before?.packages ?? []).map((p) => [p.packageId, p]));
  const now = new Map(after.packages.map((p) => [p.packageId, p]));
  const lines: string[] = [];
  for (const [id, p] of now) {
    const o = old.get(id);
    if (!o) lines.push(`+ ${label(p)}  ${window(p)}`);
    else if (window(o) !== window(p)) lines.push(`~ ${label(p)}  ${window(o)} → ${window(p)}`);
  }
  for (const [id, p] of old) if (!now.has(id)) lines.push(`- ${label(p)}  ${window(p)}`);
  return lines.length > 0 ? lines : ['(no change)'];
}
