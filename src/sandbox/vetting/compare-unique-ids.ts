function split(uid: string): readonly [string, string] {
  const i = uid.lastIndexOf('::');
  return i < 0 ? [uid, ''] : [uid.slice(0, i), uid.slice(i + 2)];
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Orders unique identifiers (`<identifier>::<namespace>`: synchronizer and participant ids) the way the
 * vetting list sorts them (docs/server-behavior.md#vetting-list-paging-and-order): by the identifier part, then by the namespace part, each
 * by UTF-16 code units (Java `String.compareTo`). This differs from comparing the whole strings only when
 * one identifier is a prefix of another (`sync::…` vs `sync-2::…`).
 */
export function compareUniqueIds(a: string, b: string): number {
  const [ai, an] = split(a);
  const [bi, bn] = split(b);
  return compareStrings(ai, bi) || compareStrings(an, bn);
}
