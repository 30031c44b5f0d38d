/** Index of the first record of an offset-ordered array whose offset is greater than `offset` (binary search; the length if none). */
export function firstAfter(records: readonly { readonly offset: number }[], offset: number): number {
  let lo = 0;
  let hi = records.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((records[mid] as { offset: number }).offset <= offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
