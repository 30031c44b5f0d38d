import type { ParticipantState } from './participant-state.js';

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

/**
 * Vetting state per (synchronizer, participant), including another participant's, as a real node sees it.
 * At start, every connected synchronizer has this participant vetting the demo packages except
 * `ledger-rx-extras`, and the other participant vetting `daml-prim`, `daml-stdlib` and
 * `ledger-rx-demo` 1.0.0.
 */
export class VettingStore {
  readonly state: ParticipantState;
  private readonly bySynchronizer = new Map<string, Map<string, VettingState>>();

  constructor(state: ParticipantState) {
    this.state = state;
    const all = state.packages.all();
    const local = all.filter((p) => p.name !== 'ledger-rx-extras').map((p) => ({ packageId: p.packageId }));
    const other = all
      .filter((p) => p.name === 'daml-prim' || p.name === 'daml-stdlib' || (p.name === 'ledger-rx-demo' && p.version === '1.0.0'))
      .map((p) => ({ packageId: p.packageId }));
    for (const s of state.synchronizers) {
      this.set(s.id, state.participantId, { packages: local, serial: 1 });
      this.set(s.id, state.otherParticipantId, { packages: other, serial: 2 });
    }
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

  /** Every (synchronizer, participant) pair with a state, unordered. */
  entries(): { synchronizerId: string; participantId: string; state: VettingState }[] {
    const out: { synchronizerId: string; participantId: string; state: VettingState }[] = [];
    for (const [synchronizerId, m] of this.bySynchronizer) {
      for (const [participantId, state] of m) out.push({ synchronizerId, participantId, state });
    }
    return out;
  }

  /**
   * Package ids `participantId` (default: this participant) has vetted on `synchronizerId` and that are
   * valid at `at` (ISO timestamp; default now).
   */
  vettedPackageIds(synchronizerId: string, participantId = this.state.participantId, at = new Date().toISOString()): Set<string> {
    const s = this.get(synchronizerId, participantId);
    const out = new Set<string>();
    for (const e of s?.packages ?? []) {
      if (e.validFromInclusive !== undefined && at < e.validFromInclusive) continue;
      if (e.validUntilExclusive !== undefined && at >= e.validUntilExclusive) continue;
      out.add(e.packageId);
    }
    return out;
  }
}
