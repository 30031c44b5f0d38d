/**
 * What a stream stores, as far as a change of it needs a backfill or a removal (docs/query-store.md, "Scope
 * changes"): its parties (`null`: every party), and the templates and interfaces of its filter (both empty: every
 * template). Ids as given (`#package-name:Module:Entity`). Recorded by {@link PostgresSink} in
 * `ledger_rx_stream_scopes`.
 */
export interface StreamScope {
  readonly parties: readonly string[] | null;
  readonly templates: readonly string[];
  readonly interfaces: readonly string[];
}

/** How a scope changed: `widened` (something is in `after` that `before` did not store: backfill it), `narrowed` (the reverse). */
export interface StreamScopeChange {
  readonly widened: boolean;
  readonly narrowed: boolean;
}

const missingFrom = (a: readonly string[], b: readonly string[]) => a.some((x) => !b.includes(x));

/** Compares two scopes (pure): which way `after` differs from `before`, possibly both. */
export function streamScopeChange(before: StreamScope, after: StreamScope): StreamScopeChange {
  const partiesWidened = before.parties !== null && (after.parties === null || missingFrom(after.parties, before.parties));
  const partiesNarrowed = after.parties !== null && (before.parties === null || missingFrom(before.parties, after.parties));
  const what = (s: StreamScope) => [...s.templates.map((t) => `t ${t}`), ...s.interfaces.map((i) => `i ${i}`)];
  const [b, a] = [what(before), what(after)];
  const whatWidened = b.length > 0 && (a.length === 0 || missingFrom(a, b));
  const whatNarrowed = a.length > 0 && (b.length === 0 || missingFrom(b, a));
  return { widened: partiesWidened || whatWidened, narrowed: partiesNarrowed || whatNarrowed };
}

/** Whether two scopes store the same (pure): the same parties, templates and interfaces, in any order. */
export function sameScope(a: StreamScope, b: StreamScope): boolean {
  const change = streamScopeChange(a, b);
  return !change.widened && !change.narrowed;
}
