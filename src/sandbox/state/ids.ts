import { createHash } from 'node:crypto';

/** 64 lowercase hex characters derived from `seed` (stable across runs). */
export function hex64(seed: string): string {
  return createHash('sha256').update(seed).digest('hex');
}

/** A Canton namespace fingerprint: `1220` + 64 hex. */
export function fingerprint(seed: string): string {
  return `1220${hex64(seed)}`;
}

/** A unique identifier `<identifier>::<namespace>` (parties, participants, synchronizers). */
export function uid(identifier: string, namespaceSeed: string): string {
  return `${identifier}::${fingerprint(namespaceSeed)}`;
}

/** True when `value` looks like a unique identifier `<identifier>::<namespace>`. */
export function isUid(value: string): boolean {
  const i = value.indexOf('::');
  if (i <= 0 || i !== value.lastIndexOf('::')) return false;
  const identifier = value.slice(0, i);
  const namespace = value.slice(i + 2);
  return /^[a-zA-Z0-9:\-_ ]{1,185}$/.test(identifier) && /^[0-9a-f]{68}$/.test(namespace);
}

/** A valid Daml party id string: 1–255 characters from letters, digits, `:`, `-`, `_` and space. */
export function isPartyIdString(value: string): boolean {
  return /^[a-zA-Z0-9:\-_ ]{1,255}$/.test(value);
}

/** A Daml ledger string (command ids, user ids, ...): 1–255 of `[a-zA-Z0-9._:\-#/ |@^$`+'~]`. */
export function isLedgerString(value: string): boolean {
  return /^[a-zA-Z0-9._:\-#/ |@^$`+'~]{1,255}$/.test(value);
}

/** A small deterministic PRNG (mulberry32), so seeded sandboxes produce the same ledger every run. */
export function createRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
