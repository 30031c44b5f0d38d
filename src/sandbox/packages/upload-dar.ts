import type { ParticipantState } from '../participant/participant-state.js';
import { PackageStore, type PackageDef } from '../state/package-store.js';
import type { VettedEntry } from '../state/vetting-store.js';
import { selectVettingSynchronizer } from '../vetting/select-vetting-synchronizer.js';
import { validateVettingState } from '../vetting/validate-vetting-state.js';
import type { DarContents, DarPackage } from './read-dar.js';

/** How a DAR is uploaded: the `vetAllPackages` and `synchronizerId` query parameters of `POST /v2/dars`. */
export interface UploadDarOptions {
  /** Vet every package of the DAR (default of the JSON API: true). */
  readonly vetAllPackages: boolean;
  /** The synchronizer to vet on; `undefined` (or empty) auto-detects the only connected one. */
  readonly synchronizerId: string | undefined;
}

function toPackageDef(p: DarPackage): PackageDef {
  return {
    packageId: p.packageId,
    name: p.name,
    version: p.version,
    dependencies: p.dependencies,
    templates: p.signatures.templates,
    interfaces: p.signatures.interfaces,
    dataTypes: p.signatures.dataTypes,
    utility: p.utility,
    payload: p.payload,
  };
}

/**
 * Stores the packages of a read DAR and, with `vetAllPackages`, vets them all on the chosen synchronizer,
 * as the participant's upload does (docs/sandbox.md#dar-uploads), in this order and all or nothing:
 *
 * 1. with vetting, the synchronizer (`PACKAGE_SERVICE_NOT_CONNECTED_TO_SYNCHRONIZER`,
 *    `PACKAGE_SERVICE_CANNOT_AUTODETECT_SYNCHRONIZER`);
 * 2. with vetting, the new vetting state — this participant's current one plus every package of the DAR
 *    not yet vetted there, unbounded — is checked like a vetting update's (`validateVettingState`:
 *    missing or unvetted dependencies, `KNOWN_PACKAGE_VERSION`, `NOT_VALID_UPGRADE_PACKAGE`);
 * 3. the packages the store does not have yet are added (uploading a DAR again changes nothing), then the
 *    vetting state is published as a new topology transaction if it changed.
 *
 * Runs without awaiting, so concurrent uploads and vetting updates are serialised.
 */
export function uploadDar(state: ParticipantState, dar: DarContents, options: UploadDarOptions): void {
  const fresh = [dar.main, ...dar.dependencies].filter((p, i, all) => state.packages.get(p.packageId) === undefined && all.findIndex((q) => q.packageId === p.packageId) === i).map(toPackageDef);
  let vetting: { synchronizerId: string; next: VettedEntry[] } | undefined;
  if (options.vetAllPackages) {
    const synchronizerId = selectVettingSynchronizer(state, options.synchronizerId === '' ? undefined : options.synchronizerId);
    const current = state.vetting.get(synchronizerId, state.participantId)?.packages ?? [];
    const vetted = new Set(current.map((e) => e.packageId));
    const added = [dar.main, ...dar.dependencies].map((p) => p.packageId).filter((id, i, all) => !vetted.has(id) && all.indexOf(id) === i);
    if (added.length > 0) {
      const next = [...current, ...added.map((packageId) => ({ packageId }))];
      const trial = new PackageStore([...state.packages.all(), ...fresh]);
      validateVettingState(trial, current, next, { allowUnvettedDependencies: false, allowIncompatibleUpgrades: false });
      vetting = { synchronizerId, next };
    }
  }
  for (const p of fresh) state.packages.add(p);
  if (vetting) state.vetting.publish(vetting.synchronizerId, state.participantId, vetting.next);
}
