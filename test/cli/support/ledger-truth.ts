import type { Sandbox } from '../../../src/sandbox/index.js';

/** The offset of an NDJSON line (an update element). */
export function offsetOfLine(line: string): number {
  const element = JSON.parse(line) as { update: Record<string, { value: { offset: number } }> };
  const payload = Object.values(element.update)[0];
  if (!payload) throw new Error(`no update in ${line}`);
  return payload.value.offset;
}

/**
 * The offsets of the updates an any-party, ACS-delta read of transactions returns, from the sandbox's own
 * log (independent of the client and the CLI): transactions with at least one event in the ACS delta.
 */
export function visibleAcsDeltaOffsets(sandbox: Sandbox, endInclusive?: number): number[] {
  return sandbox
    .updates(endInclusive === undefined ? {} : { endInclusive })
    .filter((u) => u.kind === 'Transaction' && u.events.some((e) => e.acsDelta))
    .map((u) => u.offset);
}

/** Offsets of the transactions a ledger-effects read shows (those with at least one event). */
export function visibleLedgerEffectsOffsets(sandbox: Sandbox, endInclusive?: number): number[] {
  return sandbox
    .updates(endInclusive === undefined ? {} : { endInclusive })
    .filter((u) => u.kind === 'Transaction' && u.events.length > 0)
    .map((u) => u.offset);
}

/** The active contracts (ids) of the sandbox up to `endInclusive`, from its log: ACS-delta creates minus archivals. */
export function activeContractIds(sandbox: Sandbox, endInclusive?: number): string[] {
  const active = new Set<string>();
  for (const u of sandbox.updates(endInclusive === undefined ? {} : { endInclusive })) {
    if (u.kind !== 'Transaction') continue;
    for (const e of u.events) {
      if (e.kind === 'Created' && e.acsDelta) active.add(e.contractId);
      if (e.kind === 'Exercised' && e.acsDelta) active.delete(e.contractId);
    }
  }
  return [...active].sort();
}

/** Asserts-free check: strictly increasing, returns the first violation index or -1. */
export function firstOrderViolation(offsets: readonly number[]): number {
  for (let i = 1; i < offsets.length; i++) if ((offsets[i] as number) <= (offsets[i - 1] as number)) return i;
  return -1;
}
