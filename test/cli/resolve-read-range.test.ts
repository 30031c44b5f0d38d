import { describe, expect, it } from 'vitest';
import type { LedgerBounds } from '../../src/cli/source/ledger-bounds.js';
import type { Logger } from '../../src/cli/log/logger.js';
import { resolveReadRange } from '../../src/cli/source/resolve-read-range.js';
import { UsageError } from '../../src/cli/options/usage-error.js';

const quiet: Logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

/** Bounds with a ledger end and a pruning boundary, counting the lookups. */
function bounds(end: number, pruned: number): LedgerBounds & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    ledgerEnd: async () => {
      calls.push('end');
      return end;
    },
    prunedUpTo: async () => {
      calls.push('pruned');
      return pruned;
    },
    reach: async () => undefined,
  };
}

describe('resolveReadRange', () => {
  it('--from begin (the default) starts at the pruning boundary: 0 on an unpruned participant', async () => {
    expect(await resolveReadRange({}, bounds(100, 0), quiet, 'reading')).toEqual({ beginExclusive: 0, endInclusive: undefined });
    expect(await resolveReadRange({ from: 'begin', to: 'end' }, bounds(100, 40), quiet, 'reading')).toEqual({ beginExclusive: 40, endInclusive: 100 });
    expect(await resolveReadRange({ descending: true }, bounds(100, 40), quiet, 'reading')).toEqual({ beginExclusive: 40, endInclusive: 'ledger-end' });
    expect(await resolveReadRange({ to: 70 }, bounds(100, 40), quiet, 'reading')).toEqual({ beginExclusive: 40, endInclusive: 70 });
  });

  it('under an explicit --to within the pruned range it keeps 0, so the participant reports the pruning (exit 3)', async () => {
    expect(await resolveReadRange({ to: 30 }, bounds(100, 40), quiet, 'reading')).toEqual({ beginExclusive: 0, endInclusive: 30 });
    expect(await resolveReadRange({ to: 40, descending: true }, bounds(100, 40), quiet, 'reading')).toMatchObject({ beginExclusive: 0 });
  });

  it('sends an explicit --from as given (a pruned one fails at the participant), and --from end as the ledger end', async () => {
    const b = bounds(100, 40);
    expect(await resolveReadRange({ from: 5, to: 'end' }, b, quiet, 'reading')).toEqual({ beginExclusive: 5, endInclusive: 100 });
    expect(b.calls).toEqual(['end', 'end']);
    const e = bounds(100, 40);
    expect(await resolveReadRange({ from: 'end' }, e, quiet, 'reading')).toEqual({ beginExclusive: 'ledger-end', endInclusive: undefined });
    expect(e.calls).toEqual([]);
    expect(await resolveReadRange({ from: 100 }, bounds(100, 0), quiet, 'reading')).toMatchObject({ beginExclusive: 100 });
  });

  it('--from after the ledger end is bad usage naming both offsets', async () => {
    await expect(resolveReadRange({ from: 101 }, bounds(100, 0), quiet, 'reading')).rejects.toThrow(UsageError);
    await expect(resolveReadRange({ from: 500, to: 900 }, bounds(100, 0), quiet, 'reading')).rejects.toThrow(/--from 500 is after the ledger end \(100\)/);
    await expect(resolveReadRange({ from: 500, descending: true }, bounds(100, 0), quiet, 'reading')).rejects.toThrow(/--from 500/);
  });

  it('--descending --to after the ledger end is bad usage; an ascending --to after it waits for it', async () => {
    await expect(resolveReadRange({ to: 101, descending: true }, bounds(100, 0), quiet, 'reading')).rejects.toThrow(/--to 101 is after the ledger end \(100\)/);
    expect(await resolveReadRange({ to: 100, descending: true }, bounds(100, 0), quiet, 'reading')).toEqual({ beginExclusive: 0, endInclusive: 100 });
    expect(await resolveReadRange({ to: 5000 }, bounds(100, 0), quiet, 'reading')).toEqual({ beginExclusive: 0, endInclusive: 5000 });
  });
});
