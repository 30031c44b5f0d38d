const hasOwn = Object.prototype.hasOwnProperty;

/**
 * The own enumerable keys of a single-key variant object, counted without building an array: `count` keys,
 * `tag` the last one seen (the variant's tag when `count` is 1). Pure.
 */
export function ownKeysOf(variant: object): { readonly tag: string | undefined; readonly count: number } {
  let tag: string | undefined;
  let count = 0;
  for (const key in variant) {
    if (hasOwn.call(variant, key)) {
      tag = key;
      count++;
    }
  }
  return { tag, count };
}
