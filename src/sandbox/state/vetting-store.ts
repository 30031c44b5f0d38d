import { compareInstants } from '../decode/compare-instants.js';
import type { PackageStore } from './package-store.js';
import type { SynchronizerInfo } from './synchronizer-info.js';

/** What a {@link VettingStore} starts from: the uploaded packages, the synchronizers and both participants. */
export interface VettingStoreDeps {
  readonly packages: PackageStore;
  readonly synchronizers: readonly SynchronizerInfo[];
  /** This participant. */
  readonly participantId: string;
  /** The other participant on the same synchronizers. */
  readonly otherParticipantId: string;
}

/** One vetted package with its validity bounds (ISO timestamps; `undefined` = unbounded). */
export interface VettedEntry {
  readonly packageId: string;
  readonly validFromInclusive?: string;
  readonly validUntilExclusive?: string;
}

/** The vetting state of one (synchronizer, participant) pair: the latest `VettedPackages` mapping. */
export interface VettingState {
  readonly packages: readonly VettedEntry[];
  /** Serial of the latest topology transaction for the pair (≥ 1). */
  readonly serial: number;
}

/** One (synchronizer, participant) pair with its state, as {@link VettingStore.entries} lists them. */
export interface VettingStoreEntry {
  readonly synchronizerId: string;
  readonly participantId: string;
  readonly state: VettingState;
}

/**
 * Vetting state per (synchronizer, participant), including another participant's, as a real node sees it
 * in its topology state. States are immutable values: a change replaces the pair's state
 * ({@link VettingStore.set}, or {@link VettingStore.publish}, which also advances the serial like a new
 * topology transaction).
 *
 * Initial state:
 * - this participant vets every demo package except `ledger-rx-extras` (serial 1) on every synchronizer
 *   **except the second one**: there it has no vetting state at all, so that a sandbox with two or more
 *   synchronizers also shows the "first vetting on a synchronizer" case (`pastVettedPackages: null`,
 *   serial 1). Vet there first (`POST /v2/package-vetting/update` or {@link VettingStore.publish}) before
 *   relying on packages on that synchronizer;
 * - the other participant vets `daml-prim`, `daml-stdlib` and `ledger-rx-demo` 1.0.0 (serial 2) on every
 *   synchronizer.
 */
export class VettingStore {
  private readonly participantId: string;
  private readonly bySynchronizer = new Map<string, Map<string, VettingState>>();

  constructor(deps: VettingStoreDeps) {
    this.participantId = deps.participantId;
    const all = deps.packages.all();
    const local = all.filter((p) => p.name !== 'ledger-rx-extras').map((p) => ({ packageId: p.packageId }));
    const other = all
      .filter((p) => p.name === 'daml-prim' || p.name === 'daml-stdlib' || (p.name === 'ledger-rx-demo' && p.version === '1.0.0'))
      .map((p) => ({ packageId: p.packageId }));
    deps.synchronizers.forEach((s, i) => {
      if (i !== 1) this.set(s.id, deps.participantId, { packages: local, serial: 1 });
      this.set(s.id, deps.otherParticipantId, { packages: other, serial: 2 });
    });
  }

  get(synchronizerId: string, participantId: string): VettingState | undefined {
    return this.bySynchronizer.get(synchronizerId)?.get(participantId);
  }

  set(synchronizerId: string, participantId: string, value: VettingState): void {
    let m = this.bySynchronizer.get(synchronizerId);
    if (!m) {
      m = new Map();
      this.bySynchronizer.set(synchronizerId, m);
    }
    m.set(participantId, value);
  }

  /**
   * Replaces the pair's package list as a new `VettedPackages` topology transaction would: the serial
   * becomes the previous serial + 1 (1 for the first state). No validation — that is the update
   * operation's job. Returns the new state.
   */
  publish(synchronizerId: string, participantId: string, packages: readonly VettedEntry[]): VettingState {
    const next: VettingState = { packages: [...packages], serial: (this.get(synchronizerId, participantId)?.serial ?? 0) + 1 };
    this.set(synchronizerId, participantId, next);
    return next;
  }

  /** Every (synchronizer, participant) pair with a state, unordered. */
  entries(): VettingStoreEntry[] {
    const out: VettingStoreEntry[] = [];
    for (const [synchronizerId, m] of this.bySynchronizer) {
      for (const [participantId, state] of m) out.push({ synchronizerId, participantId, state });
    }
    return out;
  }

  /**
   * Package ids `participantId` (default: this participant) has vetted on `synchronizerId` and that are
   * valid at `at` (ISO timestamp; default now).
   */
  vettedPackageIds(synchronizerId: string, participantId = this.participantId, at = new Date().toISOString()): Set<string> {
    const s = this.get(synchronizerId, participantId);
    const out = new Set<string>();
    for (const e of s?.packages ?? []) {
      if (e.validFromInclusive !== undefined && compareInstants(at, e.validFromInclusive) < 0) continue;
      if (e.validUntilExclusive !== undefined && compareInstants(at, e.validUntilExclusive) >= 0) continue;
      out.add(e.packageId);
    }
    return out;
  }
}
