/**
 * The size of the next catch-up page after a FULL page of `asked` elements that took `fillMs` to fill: smaller
 * when it filled more slowly than `targetLatencyMs` (a live stream: no element should wait long for the page
 * to complete), twice as large (up to `maxLimit`) when it filled in under half of it (a backlog, where large
 * pages are cheapest); `undefined` (keep the size) in between. Pure: the caller measures with its scheduler.
 */
export function fullPageLimit(asked: number, fillMs: number, targetLatencyMs: number, maxLimit: number): number | undefined {
  if (fillMs > targetLatencyMs) return Math.max(1, Math.floor((asked * targetLatencyMs) / fillMs));
  if (fillMs < targetLatencyMs / 2) return Math.min(maxLimit, asked * 2);
  return undefined;
}
