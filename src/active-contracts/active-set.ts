import type { CreatedEvent, JsGetActiveContractsResponse, JsGetUpdatesResponse } from '../schemas/index.js';
import { ContractMap } from './contract-map.js';

/** What one update changed in an {@link ActiveSet}: the contracts that became active, and those that stopped being. */
export interface ActiveSetChange {
  readonly added: readonly CreatedEvent[];
  readonly removed: readonly CreatedEvent[];
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The single `[tag, payload]` of a variant object, or `undefined` (an unknown variant included). */
function variantOf(v: unknown): [string, unknown] | undefined {
  if (!isObject(v) || 'unknownVariant' in v) return undefined;
  for (const key in v) return [key, v[key]];
  return undefined;
}

function contractIdOf(event: unknown): string | undefined {
  const id = isObject(event) ? event['contractId'] : undefined;
  return typeof id === 'string' ? id : undefined;
}

/**
 * The active-contract set of one event format, built from a snapshot and kept current by the updates after
 * it (ACS-delta shape): the model behind `liveContracts`, and the reference the tests replay. Pure data; no
 * I/O. Memory is proportional to the active set.
 *
 * A contract is active while it is active on at least one synchronizer; for each the set remembers where:
 * - snapshot: `JsActiveContract` → active on its synchronizer; `JsIncompleteAssigned` → active on the
 *   assignment's target; `JsIncompleteUnassigned` → in flight, not active (its assignment comes as an
 *   update); `JsEmpty` and unknown kinds → nothing;
 * - updates: a `CreatedEvent` (unless `acsDelta` is `false`) → active on the transaction's synchronizer; an
 *   `ArchivedEvent`, or a consuming `ExercisedEvent` that is an ACS delta → not active anywhere; a
 *   `JsAssignmentEvent` → active on its target; a `JsUnassignedEvent` → no longer on its source. The two
 *   halves of a reassignment may come in either order. Checkpoints, topology and unknown updates change
 *   nothing.
 *
 * The value kept for a contract is the `CreatedEvent` of its latest activation (a create or assignment).
 */
export class ActiveSet {
  private current: ContractMap<CreatedEvent> = ContractMap.empty();
  private readonly where = new Map<string, string[]>();
  private loading: Map<string, CreatedEvent> | undefined = new Map();

  /** The active contracts: an immutable version (kept by whoever holds it), replaced on every change. */
  get contracts(): ReadonlyMap<string, CreatedEvent> {
    return this.current;
  }

  /** Takes one entry of the snapshot; call {@link snapshotLoaded} after the last. */
  addSnapshotEntry(element: JsGetActiveContractsResponse): void {
    const loading = this.loading;
    if (loading === undefined) throw new Error('the snapshot was already loaded');
    const entry = variantOf(element.contractEntry);
    if (entry === undefined || !isObject(entry[1])) return;
    const [tag, payload] = entry as [string, Json];
    let created: unknown;
    let synchronizer: unknown;
    if (tag === 'JsActiveContract') {
      created = payload['createdEvent'];
      synchronizer = payload['synchronizerId'];
    } else if (tag === 'JsIncompleteAssigned' && isObject(payload['assignedEvent'])) {
      created = payload['assignedEvent']['createdEvent'];
      synchronizer = payload['assignedEvent']['target'];
    }
    const id = contractIdOf(created);
    if (id === undefined || typeof synchronizer !== 'string') return;
    this.activate(id, synchronizer);
    loading.set(id, created as CreatedEvent);
  }

  /** Ends the snapshot: the contracts taken so far become the first version of {@link contracts}. */
  snapshotLoaded(): void {
    if (this.loading === undefined) return;
    this.current = ContractMap.of(this.loading);
    this.loading = undefined;
  }

  /**
   * Applies one update element (after {@link snapshotLoaded}) and returns what it changed, or `undefined`
   * when the set of active contracts is the same after it.
   */
  applyUpdate(element: JsGetUpdatesResponse): ActiveSetChange | undefined {
    this.snapshotLoaded();
    const update = variantOf(element.update);
    if (update === undefined || !isObject(update[1]) || !isObject(update[1]['value'])) return undefined;
    const [tag] = update;
    const value = update[1]['value'];
    const events = Array.isArray(value['events']) ? value['events'] : [];
    const before = new Map<string, CreatedEvent | undefined>();
    const latest = new Map<string, CreatedEvent>();
    const touch = (id: string): void => {
      if (!before.has(id)) before.set(id, this.current.get(id));
    };
    if (tag === 'Transaction') {
      const synchronizer = typeof value['synchronizerId'] === 'string' ? value['synchronizerId'] : '';
      for (const event of events) {
        const ev = variantOf(event);
        if (ev === undefined || !isObject(ev[1])) continue;
        const [kind, e] = ev as [string, Json];
        const id = contractIdOf(e);
        if (id === undefined) continue;
        if (kind === 'CreatedEvent' && e['acsDelta'] !== false) {
          touch(id);
          this.activate(id, synchronizer);
          latest.set(id, e as unknown as CreatedEvent);
        } else if (kind === 'ArchivedEvent' || (kind === 'ExercisedEvent' && e['consuming'] === true && e['acsDelta'] === true)) {
          touch(id);
          this.where.delete(id);
          latest.delete(id);
        }
      }
    } else if (tag === 'Reassignment') {
      for (const event of events) {
        const ev = variantOf(event);
        if (ev === undefined || !isObject(ev[1])) continue;
        const [kind, e] = ev as [string, Json];
        if (kind === 'JsAssignmentEvent') {
          const id = contractIdOf(e['createdEvent']);
          if (id === undefined || typeof e['target'] !== 'string') continue;
          touch(id);
          this.activate(id, e['target']);
          latest.set(id, e['createdEvent'] as CreatedEvent);
        } else if (kind === 'JsUnassignedEvent' && isObject(e['value'])) {
          const id = contractIdOf(e['value']);
          if (id === undefined) continue;
          touch(id);
          this.deactivate(id, e['value']['source']);
        }
      }
    }
    if (before.size === 0) return undefined;
    const added: CreatedEvent[] = [];
    const removed: CreatedEvent[] = [];
    const set: [string, CreatedEvent][] = [];
    const remove: string[] = [];
    for (const [id, was] of before) {
      const active = this.where.has(id);
      const now = active ? (latest.get(id) ?? was) : undefined;
      if (now !== undefined && now !== was) set.push([id, now]);
      if (!active && was !== undefined) remove.push(id);
      if (active && was === undefined && now !== undefined) added.push(now);
      if (!active && was !== undefined) removed.push(was);
    }
    if (set.length > 0 || remove.length > 0) this.current = this.current.withChanges(set, remove);
    return added.length === 0 && removed.length === 0 ? undefined : { added, removed };
  }

  private activate(id: string, synchronizer: string): void {
    const places = this.where.get(id);
    if (places === undefined) this.where.set(id, [synchronizer]);
    else if (!places.includes(synchronizer)) places.push(synchronizer);
  }

  private deactivate(id: string, synchronizer: unknown): void {
    const places = this.where.get(id);
    if (places === undefined) return;
    const rest = places.filter((s) => s !== synchronizer);
    if (rest.length === 0) this.where.delete(id);
    else this.where.set(id, rest);
  }
}
