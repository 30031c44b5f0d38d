/**
 * True when a JSON value nests objects/arrays deeper than `maxDepth` (a scalar has depth 0, `{}` and
 * `[]` depth 1). Iterative and stops early, so hostile input cannot exhaust the stack.
 */
export function exceedsNestingDepth(value: unknown, maxDepth: number): boolean {
  const stack: { v: unknown; d: number }[] = [{ v: value, d: 0 }];
  while (stack.length > 0) {
    const { v, d } = stack.pop() as { v: unknown; d: number };
    if (typeof v !== 'object' || v === null) continue;
    if (d + 1 > maxDepth) return true;
    const children = Array.isArray(v) ? v : Object.values(v);
    for (const c of children) if (typeof c === 'object' && c !== null) stack.push({ v: c, d: d + 1 });
  }
  return false;
}
