/**
 * JSON with object keys sorted at every level (arrays keep their order): two requests that mean the same
 * produce the same text, so page-token checksums do not depend on the order of a client's keys.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value ?? null, (_, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Uint8Array)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}
