import type { DamlPackage } from '../../daml/package-model.js';
import type { Dar } from '../../daml/read-dar.js';

/** Compares dotted package versions (`0.1.10` > `0.1.9`). */
function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0 && !Number.isNaN(d)) return d;
  }
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The main package of each DAR, one per package name: when two DARs have main packages of the same name (two
 * versions of a package), the newest version's, with its DAR (whose packages resolve the types it refers to).
 * An upgrade only adds trailing Optional fields, so older payloads fit the newest types (docs/analytics-export.md,
 * "Typed tables"). In the order the names first appear.
 */
export function newestMainPackages(dars: readonly Dar[]): { readonly main: DamlPackage; readonly dar: Dar }[] {
  const newest = new Map<string, { main: DamlPackage; dar: Dar }>();
  for (const dar of dars) {
    const seen = newest.get(dar.main.name);
    if (seen === undefined || compareVersions(dar.main.version, seen.main.version) > 0) newest.set(dar.main.name, { main: dar.main, dar });
  }
  return [...newest.values()];
}
