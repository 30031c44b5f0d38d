import type { PackageStore } from '../state/package-store.js';
import type { VettedEntry, VettingState } from '../state/vetting-store.js';

/** One package of a `VettedPackages` answer element, as on the wire. */
export interface VettedPackageJson {
  readonly packageId: string;
  readonly validFromInclusive: string | null;
  readonly validUntilExclusive: string | null;
  readonly packageName: string;
  readonly packageVersion: string;
}

/** A `VettedPackages` answer element: one (synchronizer, participant) pair, as on the wire. */
export interface VettedPackagesJson {
  readonly packages: VettedPackageJson[];
  readonly participantId: string;
  readonly synchronizerId: string;
  readonly topologySerial: number;
}

/**
 * Renders a vetting state as the server's `VettedPackages`: every field present, bounds as ISO instants or
 * `null` (unbounded), and each package enriched with the name and version this participant knows for it
 * (`""` for both when the package is not uploaded here — typical for other participants' packages).
 * Packages keep the order of the stored mapping. `keep` drops packages (the list's metadata filter).
 */
export function toVettedPackagesJson(
  packages: PackageStore,
  synchronizerId: string,
  participantId: string,
  state: VettingState,
  keep: (entry: VettedEntry) => boolean = () => true,
): VettedPackagesJson {
  return {
    packages: state.packages.filter(keep).map((e) => {
      const known = packages.get(e.packageId);
      return {
        packageId: e.packageId,
        validFromInclusive: e.validFromInclusive ?? null,
        validUntilExclusive: e.validUntilExclusive ?? null,
        packageName: known?.name ?? '',
        packageVersion: known?.version ?? '',
      };
    }),
    participantId,
    synchronizerId,
    topologySerial: state.serial,
  };
}
