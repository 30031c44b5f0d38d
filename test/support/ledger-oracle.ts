import type { LedgerUpdate, Sandbox } from '../../src/sandbox/index.js';
import type { UpdateFormat } from '../../src/schemas/index.js';

/**
 * "The ledger" for a filter, computed from the sandbox's own log (`Sandbox.updates()`), independently of
 * the client, the operators and the sandbox's update renderer: which offsets a transactions-only read
 * with a wildcard filter must return.
 */

/** A transactions-only read: the parties (or any party) and the shape. */
export interface TransactionView {
  readonly parties: readonly string[] | 'any';
  readonly shape: 'TRANSACTION_SHAPE_ACS_DELTA' | 'TRANSACTION_SHAPE_LEDGER_EFFECTS';
}

/** The wire `UpdateFormat` of a view (wildcard filters, transactions only). */
export function viewFormat(view: TransactionView): UpdateFormat {
  const filters = { cumulative: [] };
  const eventFormat =
    view.parties === 'any'
      ? { filtersByParty: {}, filtersForAnyParty: filters, verbose: false }
      : { filtersByParty: Object.fromEntries(view.parties.map((p) => [p, filters])), verbose: false };
  return { includeTransactions: { eventFormat, transactionShape: view.shape } } as UpdateFormat;
}

function reads(sandbox: Sandbox, view: TransactionView): (party: string) => boolean {
  return (p) => sandbox.state.parties.get(p)?.isLocal === true && (view.parties === 'any' || view.parties.includes(p));
}

/** True when the transaction `u` has an event the view shows. */
export function visibleIn(sandbox: Sandbox, u: LedgerUpdate, view: TransactionView): boolean {
  if (u.kind !== 'Transaction') return false;
  const r = reads(sandbox, view);
  return u.events.some((e) => {
    if (view.shape === 'TRANSACTION_SHAPE_LEDGER_EFFECTS') return e.witnesses.some(r);
    if (!e.acsDelta) return false;
    return e.kind === 'Created' ? [...e.signatories, ...e.observers].some(r) : e.stakeholders.some(r);
  });
}

/** The offsets a read of `view` over `(beginExclusive, endInclusive]` must deliver, ascending. */
export function expectedOffsets(sandbox: Sandbox, view: TransactionView, range: { beginExclusive?: number; endInclusive?: number } = {}): number[] {
  return sandbox
    .updates(range)
    .filter((u) => visibleIn(sandbox, u, view))
    .map((u) => u.offset);
}

/** The offset of a delivered element (`value.offset` of its single variant), or `undefined`. */
export function elementOffset(element: unknown): number | undefined {
  const update = (element as { update?: Record<string, { value?: { offset?: unknown } }> } | null)?.update;
  if (!update) return undefined;
  const first = Object.values(update)[0];
  const offset = first?.value?.offset;
  return typeof offset === 'number' ? offset : undefined;
}

/** The index of the first offset that does not strictly increase (decrease when `descending`), or -1. */
export function firstDisorder(offsets: readonly number[], descending = false): number {
  for (let i = 1; i < offsets.length; i++) {
    const a = offsets[i - 1] as number;
    const b = offsets[i] as number;
    if (descending ? b >= a : b <= a) return i;
  }
  return -1;
}

/** Offsets that occur more than once. */
export function duplicates(offsets: readonly number[]): number[] {
  const seen = new Set<number>();
  const dup = new Set<number>();
  for (const o of offsets) (seen.has(o) ? dup : seen).add(o);
  return [...dup];
}

/** Lost (expected but missing) and extra (delivered but not expected) offsets. */
export function diff(expected: readonly number[], actual: readonly number[]): { lost: number[]; extra: number[] } {
  const a = new Set(actual);
  const e = new Set(expected);
  return { lost: expected.filter((o) => !a.has(o)), extra: actual.filter((o) => !e.has(o)) };
}

/**
 * Writes one line of figures for the final report (`[ledger-rx figures] name: k=v …`) straight to stdout:
 * the test setup forbids `console.*`.
 */
export function reportFigures(name: string, figures: Record<string, number | string>): void {
  const text = Object.entries(figures)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
  process.stdout.write(`\n[ledger-rx figures] ${name}: ${text}\n`);
}

/**
 * The contracts of `parties` (stakeholders among them) active at offset `at`, replayed from the sandbox's
 * own log: contract id → `active`, or `unassigned` for one unassigned and not yet assigned (an incomplete
 * unassignment in a snapshot). What a snapshot at `at`, or any snapshot followed by the updates up to `at`,
 * must give.
 */
export function activeSetAt(sandbox: Sandbox, parties: readonly string[], at: number): Map<string, 'active' | 'unassigned'> {
  const out = new Map<string, 'active' | 'unassigned'>();
  const mine = (stakeholders: readonly string[]) => stakeholders.some((p) => parties.includes(p));
  for (const u of sandbox.updates({ endInclusive: at })) {
    if (u.kind === 'Transaction') {
      for (const e of u.events) {
        if (e.kind === 'Created' && e.acsDelta && mine([...e.signatories, ...e.observers])) out.set(e.contractId, 'active');
        else if (e.kind === 'Exercised' && e.consuming) out.delete(e.contractId);
      }
    } else if (u.kind === 'Reassignment') {
      for (const e of u.events) if (mine(e.stakeholders)) out.set(e.contractId, e.kind === 'Unassigned' ? 'unassigned' : 'active');
    }
  }
  return out;
}
