import type { PackageStore } from '../state/package-store.js';
import type { VettingReference } from './parse-vetting-update.js';

/** The packages a reference matches, or why it matches none. */
export type VettingResolution = { readonly ids: readonly string[] } | { readonly reason: string };

/**
 * Resolves a package reference against the participant's package store (uploaded packages), with the
 * server's rules and reasons (docs/server-behavior.md#vetting-update-order step 5):
 * - {id}: that package, if uploaded;
 * - {name}: every uploaded version of the name (may be several);
 * - {name, version}: the packages with that name and version;
 * - {id, name, version}: the package with that id, only if its name and version agree.
 *
 * What a result means is the caller's business: Vet requires exactly one match, Unvet takes all and
 * ignores none.
 */
export function resolveVettingReference(packages: PackageStore, ref: VettingReference): VettingResolution {
  switch (ref.kind) {
    case 'id':
      return packages.get(ref.id) ? { ids: [ref.id] } : { reason: `No packages with package ID ${ref.id}` };
    case 'name': {
      const named = packages.byName(ref.name);
      return named.length > 0 ? { ids: named.map((p) => p.packageId) } : { reason: `No packages with name ${ref.name}` };
    }
    case 'name-version': {
      const named = packages.byName(ref.name);
      if (named.length === 0) return { reason: `Name ${ref.name} did not match any packages.` };
      const matching = named.filter((p) => p.version === ref.version);
      return matching.length > 0 ? { ids: matching.map((p) => p.packageId) } : { reason: `No packages with name ${ref.name} have version ${ref.version}.` };
    }
    case 'all': {
      const p = packages.get(ref.id);
      if (!p) return { reason: `No packages with package ID ${ref.id}` };
      if (p.name === ref.name && p.version === ref.version) return { ids: [ref.id] };
      return {
        reason: `Package with package ID ${ref.id} has name ${p.name} and version ${p.version}, but filter specifies name ${ref.name} and version ${ref.version}`,
      };
    }
  }
}
