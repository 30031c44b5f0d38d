/** The union of party lists, in first-seen order, without duplicates. Returns `a` itself when `b` adds nothing. */
export function unionParties(a: readonly string[], ...rest: readonly (readonly string[])[]): readonly string[] {
  let out: string[] | undefined;
  for (const list of rest) {
    for (const p of list) {
      if ((out ?? a).includes(p)) continue;
      (out ??= [...a]).push(p);
    }
  }
  return out ?? a;
}
