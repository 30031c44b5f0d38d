import { elide } from './elide.js';

const party = /^([^:\s]+)::([0-9a-f]{40,})$/;

/** The fingerprint of the first party seen with each hint, for the whole process (see {@link shortParty}). */
const firstByHint = new Map<string, string>();

/**
 * A party (or participant) id as people read it, the same in every human view (`tail`, `acs`,
 * `completions`, in event columns and inside arguments): its hint alone (`Alice::12206e27…c42d` becomes
 * `Alice`), unless another id with the same hint was shown first in this process, in which case the hint,
 * `::` and the fingerprint's first and last four characters (`Alice::1220…9f0e`), so two parties never look
 * alike and a party keeps its form for the whole run. Anything that is not an id of that form (`hint::`
 * followed by 40 or more lower-case hex digits) is returned as it is.
 */
export function shortParty(id: string): string {
  const match = party.exec(id);
  if (!match) return id;
  const hint = match[1] as string;
  const fingerprint = match[2] as string;
  let first = firstByHint.get(hint);
  if (first === undefined) {
    first = fingerprint;
    firstByHint.set(hint, fingerprint);
  }
  return first === fingerprint ? hint : `${hint}::${elide(fingerprint, 4, 4)}`;
}
