const bits = 5;
const width = 1 << bits;
const mask = width - 1;

type Leaf<V> = ReadonlyMap<string, V>;
type Branch<V> = ReadonlyArray<Leaf<V> | undefined>;
type Root<V> = ReadonlyArray<Branch<V> | undefined>;

/** FNV-1a over the UTF-16 code units: spreads contract ids of any form over the trie. */
function hash(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function leafOf<V>(root: Root<V>, key: string): Leaf<V> | undefined {
  const h = hash(key);
  return root[h & mask]?.[(h >>> bits) & mask];
}

const emptyRoot: Root<never> = Object.freeze(new Array<undefined>(width).fill(undefined));

/**
 * An immutable map from contract id to a value (the `contracts` of `liveContracts`), with cheap new versions:
 * a two-level trie of 32 × 32 buckets whose leaves are small `Map`s. {@link withChanges} copies only the
 * buckets it touches (two arrays of 32 and one leaf per changed id), so a new version after an update costs
 * about `size / 1024` entries, not `size`, and versions share everything else. A version never changes once
 * made: hand it out freely. Memory is proportional to the entries of the versions still referenced.
 *
 * Implements `ReadonlyMap`; iteration order is the trie's, not insertion order.
 */
export class ContractMap<V> implements ReadonlyMap<string, V> {
  private constructor(
    private readonly root: Root<V>,
    readonly size: number,
  ) {}

  /** The empty map. */
  static empty<V>(): ContractMap<V> {
    return new ContractMap<V>(emptyRoot, 0);
  }

  /** A map of `entries` (later entries win). */
  static of<V>(entries: Iterable<readonly [string, V]>): ContractMap<V> {
    return ContractMap.empty<V>().withChanges(entries, []);
  }

  get(key: string): V | undefined {
    return leafOf(this.root, key)?.get(key);
  }

  has(key: string): boolean {
    return leafOf(this.root, key)?.has(key) ?? false;
  }

  /**
   * A new version with `set` put in (replacing values of ids already present) and then `remove` taken out
   * (ids that are absent are ignored). Returns `this` when nothing changes.
   */
  withChanges(set: Iterable<readonly [string, V]>, remove: Iterable<string>): ContractMap<V> {
    let root: (Branch<V> | undefined)[] | undefined;
    const copied = new Set<object>();
    let size = this.size;
    /** The leaf of `key` in the new version, copied once per call. */
    const leafFor = (key: string): Map<string, V> => {
      const h = hash(key);
      const i = h & mask;
      const j = (h >>> bits) & mask;
      root ??= [...this.root];
      let branch = root[i] as (Leaf<V> | undefined)[] | undefined;
      if (branch === undefined || !copied.has(branch)) {
        branch = branch === undefined ? new Array<undefined>(width).fill(undefined) : [...branch];
        copied.add(branch);
        root[i] = branch;
      }
      let leaf = branch[j] as Map<string, V> | undefined;
      if (leaf === undefined || !copied.has(leaf)) {
        leaf = new Map(leaf);
        copied.add(leaf);
        branch[j] = leaf;
      }
      return leaf;
    };
    for (const [key, value] of set) {
      const leaf = leafFor(key);
      if (!leaf.has(key)) size++;
      leaf.set(key, value);
    }
    for (const key of remove) {
      if (leafOf(root ?? this.root, key)?.has(key) !== true) continue;
      if (leafFor(key).delete(key)) size--;
    }
    return root === undefined ? this : new ContractMap<V>(root, size);
  }

  forEach(callback: (value: V, key: string, map: ReadonlyMap<string, V>) => void, thisArg?: unknown): void {
    for (const [key, value] of this.entries()) callback.call(thisArg, value, key, this);
  }

  *entries(): MapIterator<[string, V]> {
    for (const branch of this.root) {
      if (branch === undefined) continue;
      for (const leaf of branch) if (leaf !== undefined) yield* leaf.entries();
    }
  }

  *keys(): MapIterator<string> {
    for (const [key] of this.entries()) yield key;
  }

  *values(): MapIterator<V> {
    for (const [, value] of this.entries()) yield value;
  }

  [Symbol.iterator](): MapIterator<[string, V]> {
    return this.entries();
  }
}
