import { ErrorDefs } from '../errors/error-defs.js';
import { SandboxError } from '../errors/sandbox-error.js';
import { compareVersions, type PackageDef, type PackageStore } from '../state/package-store.js';
import type { VettedEntry } from '../state/vetting-store.js';
import { compareInstants } from '../decode/compare-instants.js';
import { upgradeProblem } from './upgrade-problem.js';

/** The force flags that relax {@link validateVettingState}. */
export interface VettingValidationFlags {
  /** `UPDATE_VETTED_PACKAGES_FORCE_FLAG_ALLOW_UNVETTED_DEPENDENCIES`: skip the dependency check. */
  readonly allowUnvettedDependencies: boolean;
  /** `UPDATE_VETTED_PACKAGES_FORCE_FLAG_ALLOW_VET_INCOMPATIBLE_UPGRADES`: skip both upgrade checks. */
  readonly allowIncompatibleUpgrades: boolean;
}

const scalaSet = (ids: Iterable<string>) => `Set(${[...ids].join(', ')})`;

/**
 * Checks the vetting state a (dry or real) update would write, as the topology manager does, in this order
 * (the reference does not fix the order between the checks; this one goes from the mapping itself to its
 * relation with other packages):
 *
 * 1. bounds: a package whose `validFromInclusive` is not before its `validUntilExclusive` makes an invalid
 *    mapping → `TOPOLOGY_INVALID_MAPPING` (400);
 * 2. missing packages: a newly vetted package with a (transitive) dependency that is not uploaded here →
 *    `TOPOLOGY_CANNOT_VET_DUE_TO_MISSING_PACKAGES` (404);
 * 3. dependencies, unless `allowUnvettedDependencies`: every (transitive) dependency of a package must be
 *    vetted too → `TOPOLOGY_DEPENDENCIES_NOT_VETTED` (400, context `unvetted` = the dependencies missing).
 *    This catches both directions: vetting a package whose dependencies are not vetted, and unvetting a
 *    package that a still-vetted package depends on. Choice: only packages this update touches are checked
 *    (newly vetted ones, and ones that lose a dependency), so a state made inconsistent earlier with the
 *    force flag does not block unrelated later updates. Bounds are not compared (a dependency vetted for a
 *    different period still counts as vetted).
 * 4. upgrades, unless `allowIncompatibleUpgrades` (both checks; the real flag relaxes both as well): for
 *    each newly vetted package, another vetted package with the same name and version →
 *    `KNOWN_PACKAGE_VERSION` (400); else it must be a valid upgrade of the nearest lower vetted version and
 *    the nearest higher vetted version a valid upgrade of it (see `upgradeProblem`) →
 *    `NOT_VALID_UPGRADE_PACKAGE` (400). Vetting an older version next to a newer compatible one is fine.
 *    Utility packages are ignored by both checks (docs/sandbox.md#dar-uploads): real DARs carry several
 *    `daml-prim` 0.0.0 packages with different ids.
 */
export function validateVettingState(packages: PackageStore, current: readonly VettedEntry[], next: readonly VettedEntry[], flags: VettingValidationFlags): void {
  const empty = next.filter((e) => e.validFromInclusive !== undefined && e.validUntilExclusive !== undefined && compareInstants(e.validFromInclusive, e.validUntilExclusive) >= 0);
  if (empty.length > 0) {
    throw SandboxError.grpc(
      ErrorDefs.TOPOLOGY_INVALID_MAPPING,
      `The topology transaction was rejected due to an invalid mapping: packages with empty validity period: ${empty.map((e) => e.packageId).join(', ')}`,
    );
  }

  const currentIds = new Set(current.map((e) => e.packageId));
  const nextIds = new Set(next.map((e) => e.packageId));
  const removed = new Set([...currentIds].filter((id) => !nextIds.has(id)));
  const added = next.map((e) => e.packageId).filter((id) => !currentIds.has(id));

  const missing = new Set(added.flatMap((id) => packages.dependencyClosure(id)).filter((id) => packages.get(id) === undefined));
  if (missing.size > 0) {
    throw SandboxError.grpc(
      ErrorDefs.TOPOLOGY_CANNOT_VET_DUE_TO_MISSING_PACKAGES,
      `Package vetting failed due to packages not existing on the local node: ${[...missing].join(', ')}`,
      { context: { packages: scalaSet(missing) } },
    );
  }

  if (!flags.allowUnvettedDependencies) {
    const unvetted = new Set<string>();
    for (const id of nextIds) {
      const closure = packages.dependencyClosure(id);
      if (!currentIds.has(id) || closure.some((d) => removed.has(d))) {
        for (const d of closure) if (!nextIds.has(d)) unvetted.add(d);
      }
    }
    if (unvetted.size > 0) {
      throw SandboxError.grpc(ErrorDefs.TOPOLOGY_DEPENDENCIES_NOT_VETTED, 'Package vetting failed due to dependencies not being vetted', {
        context: { unvetted: scalaSet(unvetted) },
      });
    }
  }

  if (!flags.allowIncompatibleUpgrades) {
    const vetted = [...nextIds].map((id) => packages.get(id)).filter((p): p is PackageDef => p !== undefined && p.utility !== true);
    for (const id of added) {
      const p = packages.get(id);
      if (!p || p.utility === true) continue;
      const sameName = vetted.filter((o) => o.name === p.name && o.packageId !== p.packageId);
      const twin = sameName.find((o) => o.version === p.version);
      if (twin) {
        throw SandboxError.grpc(
          ErrorDefs.KNOWN_PACKAGE_VERSION,
          `Package ${p.packageId} has the same name and version (${p.name} ${p.version}) as the vetted package ${twin.packageId}: two packages with the same name and version cannot be vetted together`,
        );
      }
      const lower = sameName.filter((o) => compareVersions(o.version, p.version) < 0).sort((a, b) => compareVersions(b.version, a.version))[0];
      const higher = sameName.filter((o) => compareVersions(o.version, p.version) > 0).sort((a, b) => compareVersions(a.version, b.version))[0];
      for (const [older, newer] of [[lower, p], [p, higher]] as const) {
        if (!older || !newer) continue;
        const problem = upgradeProblem(older, newer);
        if (problem) {
          throw SandboxError.grpc(
            ErrorDefs.NOT_VALID_UPGRADE_PACKAGE,
            `Upgrade checks indicate that package ${newer.packageId} (${newer.name} ${newer.version}) cannot be an upgrade of package ${older.packageId} (${older.name} ${older.version}). Reason: ${problem}`,
          );
        }
      }
    }
  }
}
