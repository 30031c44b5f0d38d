import type { ResolvedSandboxOptions } from '../sandbox-options.js';
import { uid } from '../state/ids.js';
import { Ledger } from '../ledger/ledger.js';
import { PackageStore } from '../state/package-store.js';
import { PartiesStore } from '../state/parties-store.js';
import { UsersStore } from '../state/users-store.js';
import type { SynchronizerInfo } from '../state/synchronizer-info.js';
import { VettingStore } from '../state/vetting-store.js';
import { FaultQueue } from '../faults/fault-queue.js';
import { SubmissionFaults } from '../faults/submission-faults.js';
import { apiVersionProfile, type ApiVersionProfile } from '../version/api-version-profile.js';
import type { OpenStreamInfo } from '../auth/open-stream-guard.js';

/** Hints of the parties hosted here from the start (`Alice::<participant namespace>`, ...). */
export const initialLocalParties: readonly string[] = ['Alice', 'Bob', 'Charlie'];

/** Hints of the other participant's parties this participant knows from the start (`isLocal: false`). */
export const initialRemoteParties: readonly string[] = ['Dave', 'Eve'];

/**
 * The whole in-memory state of the sandbox participant: identity, synchronizers, parties, users,
 * packages, vetting, the ledger and the queued faults. Handlers read and change it; tests and users inspect it through the
 * sandbox handle.
 */
export class ParticipantState {
  /** This participant's unique identifier (`participant1::1220…`). */
  readonly participantId: string;
  /** A second participant on the same synchronizers, whose vetting state the list also shows. */
  readonly otherParticipantId: string;
  readonly synchronizers: SynchronizerInfo[];
  readonly parties = new PartiesStore();
  readonly users = new UsersStore();
  readonly packages = new PackageStore();
  readonly vetting: VettingStore;
  readonly ledger: Ledger;
  /** Faults queued for the next updates answers (`Sandbox.injectFault`). */
  readonly faults = new FaultQueue();
  /** Faults queued for the next accepted command submissions (`Sandbox.injectSubmissionFault`). */
  readonly submissionFaults = new SubmissionFaults();
  /** Change ids of accepted submissions whose outcome is not recorded yet, with their submission ids. */
  readonly inFlight = new Map<string, string>();
  /** The streams open now under ongoing authorization (see `openStreamGuard`). */
  readonly openStreams = new Set<OpenStreamInfo>();
  readonly options: ResolvedSandboxOptions;
  /** The release line served (`options.apiVersion`) and what it has (docs/participant-versions.md). */
  readonly api: ApiVersionProfile;

  constructor(options: ResolvedSandboxOptions) {
    this.options = options;
    this.api = apiVersionProfile(options.apiVersion);
    this.participantId = uid('participant1', `participant1-${options.randomSeed}`);
    this.otherParticipantId = uid('participant2', `participant2-${options.randomSeed}`);
    this.synchronizers = Array.from({ length: options.synchronizers }, (_, i) => ({
      id: uid(i === 0 ? 'global' : `sync-${i + 1}`, `synchronizer-${i}-${options.randomSeed}`),
      connected: true,
    }));
    this.vetting = new VettingStore({
      packages: this.packages,
      synchronizers: this.synchronizers,
      participantId: this.participantId,
      otherParticipantId: this.otherParticipantId,
    });
    this.ledger = new Ledger({
      randomSeed: options.randomSeed,
      checkpointIntervalMs: options.checkpointIntervalMs,
      synchronizers: this.synchronizers,
      packages: this.packages,
      parties: this.parties,
      api: this.api,
    });
    // The genesis parties are part of the initial state, not of the update log: a fresh sandbox has an
    // empty ledger (ledger end 0). Parties allocated later append topology transactions.
    const remoteNamespace = this.otherParticipantId.slice(this.otherParticipantId.indexOf('::') + 2);
    for (const hint of initialLocalParties) {
      this.parties.add({ party: `${hint}::${this.namespace}`, isLocal: true, identityProviderId: '', annotations: {}, resourceVersion: 0 });
    }
    for (const hint of initialRemoteParties) {
      this.parties.add({ party: `${hint}::${remoteNamespace}`, isLocal: false, identityProviderId: '', annotations: {}, resourceVersion: 0 });
    }
  }

  /** The id of a known party by its hint (`Alice` → `Alice::1220…`), local parties first; `undefined` if unknown. */
  partyId(hint: string): string | undefined {
    const local = `${hint}::${this.namespace}`;
    if (this.parties.has(local)) return local;
    return this.parties.all().find((p) => p.party.startsWith(`${hint}::`))?.party;
  }

  /** The namespace fingerprint of this participant (parties allocated here share it). */
  get namespace(): string {
    return this.participantId.slice(this.participantId.indexOf('::') + 2);
  }
}
