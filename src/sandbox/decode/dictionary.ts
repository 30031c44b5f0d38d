/**
 * A string-keyed map as a prototype-less object, for every map the sandbox builds from keys a client chose
 * (annotations, `filtersByParty`). On a plain `{}` the key `__proto__` is not a property but the prototype
 * accessor: assigning a string to it is silently dropped, assigning an object replaces the prototype. On a
 * prototype-less object every key, `__proto__` included, is an own data property, so it is listed by
 * `Object.keys`/`Object.entries`, validated like any other key, and rendered by `JSON.stringify`; and no
 * key (`constructor`, `toString`) can hit an inherited member.
 *
 * @param entries - the key/value pairs, in order; a later pair overwrites an earlier one with the same key.
 * @returns a new prototype-less object holding them.
 */
export function dictionary<T>(entries: Iterable<readonly [string, T]> = []): Record<string, T> {
  const out = Object.create(null) as Record<string, T>;
  for (const [k, v] of entries) out[k] = v;
  return out;
}
