import { ledgerIds, type LedgerIds } from './ledger-ids.js';
import { TemplateCatalog, type TemplateInfo } from './template-catalog.js';
import type { ContractRecord, TransactionRecord, UpdateRecord } from './update-record.js';
import { createRandom } from '../state/ids.js';
import type { CompletionRecord } from './completion-record.js';
import { firstAfter } from './first-after.js';
import type { PackageStore } from '../state/package-store.js';
import type { PartiesStore } from '../state/parties-store.js';
import type { SynchronizerInfo } from '../state/synchronizer-info.js';
import type { ApiVersionProfile } from '../version/api-version-profile.js';
import { PartyLists } from './party-lists.js';

/** What a {@link Ledger} is built from: its settings and the parts of the participant it reads. */
export interface LedgerDeps {
  /** Seeds the offset gaps and the derived ids. */
  readonly randomSeed: number;
  /** How often the cached offset checkpoint is refreshed. */
  readonly checkpointIntervalMs: number;
  /** The participant's synchronizers; records refer to them by index. */
  readonly synchronizers: readonly SynchronizerInfo[];
  /** The package store the template catalog resolves against. */
  readonly packages: PackageStore;
  /** The known parties; renderers report only the locally hosted ones as witnesses. */
  readonly parties: PartiesStore;
  /** The release line served: which fields the renderers print. */
  readonly api: ApiVersionProfile;
}

/** The cached `OffsetCheckpoint`: an offset and, per synchronizer index, the latest record time (ms). */
export interface CheckpointSnapshot {
  readonly offset: number;
  readonly synchronizerTimes: readonly number[];
}

/** What the deduplication table remembers of an accepted change id. */
export interface AcceptedChange {
  readonly offset: number;
  readonly recordTimeMs: number;
  readonly submissionId: string;
}

/**
 * The participant's ledger: the ordered log of updates, the completion log, the active contract set, the
 * pruning offset, the cached offset checkpoint and the command deduplication table.
 *
 * Offsets increase strictly but are not contiguous: before each update, a deterministic number of
 * offsets (drawn from `randomSeed`) is consumed by participant-internal events nobody can read, as on a
 * real participant, and more are consumed after the last update when the checkpoint cache is refreshed
 * (see {@link Ledger.refreshCheckpoint}). The ledger end is the last consumed offset (0 on an empty ledger).
 *
 * Storage is compact so that a ledger of 10^6 updates stays small: records share immutable parts, ids
 * are derived from offsets ({@link LedgerIds}) and JSON is produced on demand when a request reads it.
 * The log is an array ordered by offset, searched by binary search. Pruning only moves the pruning
 * offset; the records stay in memory (reads before it are refused).
 */
export class Ledger {
  /** The participant's synchronizers (records refer to them by index). */
  readonly synchronizers: readonly SynchronizerInfo[];
  /** The parties the participant knows (local ones are hosted here). */
  readonly parties: PartiesStore;
  readonly ids: LedgerIds;
  /** The shared party lists of the ledger's records ({@link PartyLists}). */
  readonly partyLists = new PartyLists();
  readonly catalog: TemplateCatalog;
  /** The release line served (docs/participant-versions.md): renderers print its fields. */
  readonly api: ApiVersionProfile;
  /** Wall-clock time the ledger was created; record times of the genesis state are one hour earlier. */
  readonly startedAtMs: number;
  private readonly log: UpdateRecord[] = [];
  private end = 0;
  private pruned = 0;
  private readonly gaps: () => number;
  private readonly syncTimes: number[];
  private lastRecordTime: number;
  private checkpointCache: CheckpointSnapshot;
  private readonly checkpointTimer: ReturnType<typeof setInterval>;
  private readonly listeners = new Set<() => void>();
  /** Active keyed contracts: template filter key → key JSON → contract(s), oldest first. */
  private readonly keys = new Map<string, Map<string, ContractRecord | ContractRecord[]>>();
  private readonly changes = new Map<string, AcceptedChange>();
  private readonly completionLog: CompletionRecord[] = [];
  /** Externally signed submissions by transaction hash (base64): their transaction and completions. */
  private readonly byHash = new Map<string, { transaction: TransactionRecord | undefined; completions: CompletionRecord[] }>();

  constructor(deps: LedgerDeps) {
    this.synchronizers = deps.synchronizers;
    this.parties = deps.parties;
    this.api = deps.api;
    this.ids = ledgerIds(deps.randomSeed);
    this.catalog = new TemplateCatalog(deps.packages);
    this.startedAtMs = Date.now();
    this.gaps = createRandom(deps.randomSeed ^ 0x5bd1e995);
    this.lastRecordTime = this.startedAtMs - 3_600_000;
    this.syncTimes = deps.synchronizers.map(() => this.lastRecordTime);
    this.checkpointCache = { offset: 0, synchronizerTimes: [...this.syncTimes] };
    this.checkpointTimer = setInterval(() => this.refreshCheckpoint(), deps.checkpointIntervalMs);
    this.checkpointTimer.unref();
  }

  /** Stops the ledger's timers (the checkpoint cache refresh). */
  close(): void {
    clearInterval(this.checkpointTimer);
  }

  /** The ledger end: the last offset the participant has indexed (an update's, or an invisible event's); 0 on an empty ledger. */
  ledgerEnd(): number {
    return this.end;
  }

  /** The pruning offset (0 when never pruned): reads must start at or after it. */
  prunedOffset(): number {
    return this.pruned;
  }

  /** Prunes up to `offset` inclusive. Throws `RangeError` beyond the ledger end or below the current pruning offset. */
  prune(offset: number): void {
    if (!Number.isSafeInteger(offset) || offset < this.pruned || offset > this.end) {
      throw new RangeError(`cannot prune to ${offset}: it must be an integer between the pruning offset ${this.pruned} and the ledger end ${this.end}`);
    }
    this.pruned = offset;
  }

  /** Number of updates in the log (pruned ones included). */
  get size(): number {
    return this.log.length;
  }

  /** The update at log index `i`. */
  at(i: number): UpdateRecord | undefined {
    return this.log[i];
  }

  /** Index of the first update with an offset greater than `offset` (`size` if none). */
  indexAfter(offset: number): number {
    return firstAfter(this.log, offset);
  }

  /** The update at exactly `offset`. */
  updateAt(offset: number): UpdateRecord | undefined {
    const i = this.indexAfter(offset) - 1;
    const u = this.log[i];
    return u && u.offset === offset ? u : undefined;
  }

  /** The contract with this id (active or not), if this ledger created it. */
  contract(contractId: string): ContractRecord | undefined {
    const ref = this.ids.parseContractId(contractId);
    if (!ref) return undefined;
    const u = this.updateAt(ref.offset);
    if (u?.kind !== 'transaction') return undefined;
    const node = u.nodes[ref.nodeId];
    return node?.kind === 'create' ? node : undefined;
  }

  /** The transaction that created `contract`. */
  creatingTransaction(contract: ContractRecord): TransactionRecord {
    return this.updateAt(contract.createdOffset) as TransactionRecord;
  }

  /** Active contracts of `template` (any version of its package) with this key JSON, oldest first. */
  contractsByKey(template: TemplateInfo, keyJson: string): readonly ContractRecord[] {
    const found = this.keys.get(template.filterKey)?.get(keyJson);
    return found === undefined ? [] : Array.isArray(found) ? found : [found];
  }

  /**
   * Takes the offset of the next update: first the offsets of a few invisible participant events, then
   * one for the update. Call {@link Ledger.append} with a record at this offset right after.
   */
  allocateOffset(): number {
    const r = this.gaps();
    const skipped = r < 0.6 ? 0 : 1 + Math.floor(((r - 0.6) / 0.4) * 3);
    return this.end + 1 + skipped;
  }

  /** A record time for a new update: now, but never earlier than the previous one. */
  nextRecordTime(): number {
    this.lastRecordTime = Math.max(Date.now(), this.lastRecordTime);
    return this.lastRecordTime;
  }

  /** Record times for `count` back-dated updates (seeding), spread between the last one and now. */
  backdatedRecordTimes(count: number): (i: number) => number {
    const base = this.lastRecordTime;
    const span = Math.max(0, Date.now() - base);
    return (i) => base + Math.floor((span * (i + 1)) / count);
  }

  /**
   * Appends an update and applies its effects to the contract set (creations, archivals,
   * (un)assignments), then wakes up the readers waiting for new updates.
   */
  append(record: UpdateRecord): void {
    if (record.offset <= this.end) throw new Error(`offset ${record.offset} does not follow the ledger end ${this.end}`);
    this.log.push(record);
    this.end = record.offset;
    this.lastRecordTime = Math.max(this.lastRecordTime, record.recordTimeMs);
    this.syncTimes[record.synchronizer] = Math.max(this.syncTimes[record.synchronizer] ?? 0, record.recordTimeMs);
    if (record.kind === 'transaction') {
      const hash = record.submission.transactionHash;
      if (hash !== undefined) this.hashEntry(hash).transaction = record;
      for (const node of record.nodes) {
        if (node.kind === 'create') {
          if (node.key) this.addKey(node);
        } else if (node.consuming) {
          node.target.archivedOffset = record.offset;
          if (node.target.key) this.removeKey(node.target);
        }
      }
    } else if (record.kind === 'reassignment') {
      for (const e of record.events) {
        e.contract.reassignmentCounter = e.reassignmentCounter;
        if (e.type === 'unassign') {
          e.contract.unassignedIn = e.reassignmentId;
        } else {
          e.contract.unassignedIn = undefined;
          e.contract.synchronizer = e.target;
        }
      }
    }
    if (this.listeners.size > 0) for (const l of [...this.listeners]) l();
  }

  /**
   * Consumes the next offset for a participant event that is not an update (a command rejection, say):
   * the ledger end moves to it, and no update log record carries it.
   */
  consumeOffset(): number {
    this.end = this.allocateOffset();
    return this.end;
  }

  /** Adds a completion (at its update's offset, or at one from {@link Ledger.consumeOffset}) and wakes the readers. */
  addCompletion(completion: CompletionRecord): void {
    const last = this.completionLog.at(-1);
    if (last && completion.offset <= last.offset) throw new Error(`completion offset ${completion.offset} does not follow ${last.offset}`);
    this.completionLog.push(completion);
    const hash = completion.submission.transactionHash;
    if (hash !== undefined) this.hashEntry(hash).completions.push(completion);
    if (this.listeners.size > 0) for (const l of [...this.listeners]) l();
  }

  /** The transaction of the externally signed submission with `transactionHash` (base64), if any. */
  transactionByHash(transactionHash: string): TransactionRecord | undefined {
    return this.byHash.get(transactionHash)?.transaction;
  }

  /** The completions of the externally signed submissions with `transactionHash` (base64), oldest first. */
  completionsByHash(transactionHash: string): readonly CompletionRecord[] {
    return this.byHash.get(transactionHash)?.completions ?? [];
  }

  private hashEntry(hash: string): { transaction: TransactionRecord | undefined; completions: CompletionRecord[] } {
    let entry = this.byHash.get(hash);
    if (!entry) {
      entry = { transaction: undefined, completions: [] };
      this.byHash.set(hash, entry);
    }
    return entry;
  }

  /** The completion log, for the readers: the index of the first completion after `offset`. */
  completionIndexAfter(offset: number): number {
    return firstAfter(this.completionLog, offset);
  }

  /** The completion at index `i` of the completion log. */
  completionAt(i: number): CompletionRecord | undefined {
    return this.completionLog[i];
  }

  /** Calls `listener` after every append, until the returned function is called. */
  onAppend(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The latest record time seen per synchronizer index (ms). */
  synchronizerTimes(): readonly number[] {
    return this.syncTimes;
  }

  /**
   * The cached offset checkpoint. Like the server's cache it is refreshed every `checkpointIntervalMs`
   * (a timer) to the ledger end and the latest record time per synchronizer, so between refreshes it lags
   * behind the ledger end.
   */
  checkpoint(): CheckpointSnapshot {
    return this.checkpointCache;
  }

  /**
   * Refreshes the cached checkpoint now (the timer does this every `checkpointIntervalMs`). When updates
   * were appended since the last refresh, participant-internal events (time ticks, bookkeeping) first
   * consume a few more offsets, and the checkpoint points at the newest of them: like on a real
   * participant, a checkpoint offset is usually one no update has, and the ledger end moves past the
   * last update.
   */
  refreshCheckpoint(): void {
    if (this.end === this.checkpointCache.offset) return;
    this.end = this.allocateOffset();
    this.checkpointCache = { offset: this.end, synchronizerTimes: [...this.syncTimes] };
  }

  /** The deduplication entry of a change id. */
  acceptedChange(changeId: string): AcceptedChange | undefined {
    return this.changes.get(changeId);
  }

  /** Remembers an accepted change id. */
  recordChange(changeId: string, change: AcceptedChange): void {
    this.changes.set(changeId, change);
  }

  private addKey(contract: ContractRecord): void {
    const key = contract.key as string;
    let byKey = this.keys.get(contract.template.filterKey);
    if (!byKey) {
      byKey = new Map();
      this.keys.set(contract.template.filterKey, byKey);
    }
    const found = byKey.get(key);
    if (found === undefined) byKey.set(key, contract);
    else if (Array.isArray(found)) found.push(contract);
    else byKey.set(key, [found, contract]);
  }

  private removeKey(contract: ContractRecord): void {
    const key = contract.key as string;
    const byKey = this.keys.get(contract.template.filterKey);
    const found = byKey?.get(key);
    if (!byKey || found === undefined) return;
    if (found === contract) {
      byKey.delete(key);
    } else if (Array.isArray(found)) {
      const i = found.indexOf(contract);
      if (i >= 0) found.splice(i, 1);
      if (found.length === 1) byKey.set(key, found[0] as ContractRecord);
    }
  }
}
