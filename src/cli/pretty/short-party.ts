import { elide } from './elide.js';

const party = /^([^:\s]+)::([0-9a-f]{40,})$/;

/**
 * A party id as people read it: the hint, `::`, then the fingerprint's first and last four characters
 * (`Alice::12206e27…c42d` becomes `Alice::1220…c42d`). Anything that is not a party id of that form
 * (`hint::` followed by 40 or more lower-case hex digits) is returned as it is.
 */
export function shortParty(id: string): string {
  const match = party.exec(id);
  if (!match) return id;
  return `${match[1] as string}::${elide(match[2] as string, 4, 4)}`;
}

