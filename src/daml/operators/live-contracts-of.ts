import { type Observable, map } from 'rxjs';
import type { CreatedEvent } from '../../schemas/events.js';
import { EventFormatBuilder } from '../../filters/event-format-builder.js';
import { liveContracts, type LiveContracts, type LiveContractsConfig } from '../../operators/live-contracts.js';
import type { SnapshotSource } from '../../operators/snapshot-source.js';
import { DamlValueError } from '../daml-value-error.js';
import type { ContractId } from '../runtime/daml-values.js';
import type { ChoiceMap, Template } from '../runtime/template.js';
import { parseDamlValue } from '../runtime/daml-schemas.js';

/** An active contract of template `T`: its id, its validated payload and the `CreatedEvent` of its latest activation. */
export interface TypedContract<T> {
  readonly contractId: ContractId<T>;
  readonly payload: T;
  readonly event: CreatedEvent;
}

/** One state of {@link liveContractsOf}: `liveContracts`' state with typed payloads. */
export interface TypedLiveContracts<T> {
  readonly offset: number;
  readonly added: readonly TypedContract<T>[];
  readonly removed: readonly TypedContract<T>[];
  /** The whole active set of the template (immutable, like `liveContracts`' map; payloads decoded once per contract). */
  readonly contracts: ReadonlyMap<ContractId<T>, TypedContract<T>>;
}

/** Options of {@link liveContractsOf}: those of `liveContracts`, with the template and the parties instead of an event format. */
export type LiveContractsOfConfig<T, C extends ChoiceMap> = Omit<LiveContractsConfig, 'eventFormat'> & {
  readonly template: Template<T, C>;
  /** The parties whose contracts to keep (at least one). */
  readonly parties: readonly string[];
};

/** A read-only view of `liveContracts`' map that hands out the typed contracts decoded for it. */
class TypedContractMap<T> implements ReadonlyMap<ContractId<T>, TypedContract<T>> {
  constructor(
    private readonly events: ReadonlyMap<string, CreatedEvent>,
    private readonly typed: (event: CreatedEvent) => TypedContract<T>,
  ) {}
  get size(): number {
    return this.events.size;
  }
  has(key: ContractId<T>): boolean {
    return this.events.has(key);
  }
  get(key: ContractId<T>): TypedContract<T> | undefined {
    const e = this.events.get(key);
    return e === undefined ? undefined : this.typed(e);
  }
  *entries(): MapIterator<[ContractId<T>, TypedContract<T>]> {
    for (const [k, e] of this.events) yield [k as ContractId<T>, this.typed(e)];
  }
  *keys(): MapIterator<ContractId<T>> {
    for (const k of this.events.keys()) yield k as ContractId<T>;
  }
  *values(): MapIterator<TypedContract<T>> {
    for (const e of this.events.values()) yield this.typed(e);
  }
  forEach(callback: (value: TypedContract<T>, key: ContractId<T>, map: ReadonlyMap<ContractId<T>, TypedContract<T>>) => void): void {
    for (const [k, e] of this.events) callback(this.typed(e), k as ContractId<T>, this);
  }
  [Symbol.iterator](): MapIterator<[ContractId<T>, TypedContract<T>]> {
    return this.entries();
  }
}

/**
 * `liveContracts` of one template, typed: the active contracts of `template` for `parties` (an event format
 * with that template filter), each state with its `added`, `removed` and whole `contracts` map holding
 * `{ contractId, payload, event }`. Every added contract's payload is validated with `template.schema` when
 * its state is emitted (a mismatch errors the stream with a `DamlValueError`), once per `CreatedEvent`.
 * Emits, completes, errors and resubscribes as `liveContracts` does.
 */
export function liveContractsOf<T, C extends ChoiceMap>(source: SnapshotSource, config: LiveContractsOfConfig<T, C>): Observable<TypedLiveContracts<T>> {
  const { template, parties, ...rest } = config;
  const eventFormat = new EventFormatBuilder().parties(...parties).template(template).build();
  const decoded = new WeakMap<CreatedEvent, TypedContract<T>>();
  const typed = (event: CreatedEvent): TypedContract<T> => {
    let t = decoded.get(event);
    if (t === undefined) {
      const parsed = parseDamlValue(template.schema, event.createArgument);
      if (!parsed.success) {
        throw new DamlValueError('the create argument', { issues: parsed.error.issues.map((i) => ({ path: i.path, message: i.message })), templateId: event.templateId, contractId: event.contractId });
      }
      t = { contractId: event.contractId as ContractId<T>, payload: parsed.data, event };
      decoded.set(event, t);
    }
    return t;
  };
  return liveContracts(source, { ...rest, eventFormat }).pipe(
    map((state: LiveContracts) => ({
      offset: state.offset,
      added: state.added.map(typed),
      removed: state.removed.map(typed),
      contracts: new TypedContractMap<T>(state.contracts, typed),
    })),
  );
}
