import { dictionary } from '../decode/dictionary.js';

/** A party known to the participant. */
export interface PartyRecord {
  readonly party: string;
  readonly isLocal: boolean;
  identityProviderId: string;
  /** Local metadata annotations: a prototype-less map ({@link dictionary}), so that every key is an own property. */
  annotations: Record<string, string>;
  resourceVersion: number;
}

/**
 * The parties the participant knows, in allocation order. Local parties are hosted here; the sandbox also
 * knows a few parties of the other participant, as a real node would.
 */
export class PartiesStore {
  private readonly byId = new Map<string, PartyRecord>();

  /** Stores `record`; its annotations are copied into a {@link dictionary}. */
  add(record: PartyRecord): PartyRecord {
    record.annotations = dictionary(Object.entries(record.annotations));
    this.byId.set(record.party, record);
    return record;
  }

  get(party: string): PartyRecord | undefined {
    return this.byId.get(party);
  }

  has(party: string): boolean {
    return this.byId.has(party);
  }

  all(): PartyRecord[] {
    return [...this.byId.values()];
  }

  /** Local parties only. */
  local(): PartyRecord[] {
    return this.all().filter((p) => p.isLocal);
  }
}
