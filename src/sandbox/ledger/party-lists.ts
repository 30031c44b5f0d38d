/**
 * One shared, immutable array per distinct party list (same parties in the same order) of the ledger's
 * records: signatories, observers, stakeholders, witnesses, acting parties. Records of a ledger mostly
 * repeat a few lists, so sharing them keeps a large ledger small, and lets the renderers cache what they
 * derive from a list (its JSON, its hosted parties) per array: a few cache entries instead of one per
 * contract (docs/benchmarks.md#sandbox-serving-cost). Holds each distinct list once, for the ledger's
 * lifetime: never more arrays than the records would hold without it.
 */
export class PartyLists {
  private readonly lists = new Map<string, readonly string[]>();

  /** The shared array with the parties of `parties` (in its order): `parties` itself the first time it is seen. */
  intern(parties: readonly string[]): readonly string[] {
    const key = JSON.stringify(parties);
    const shared = this.lists.get(key);
    if (shared !== undefined) return shared;
    this.lists.set(key, parties);
    return parties;
  }
}
