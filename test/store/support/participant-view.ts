import { expect } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { call } from '../../support/sandbox-http.js';

const filtersOf = (parties: readonly string[]) => Object.fromEntries(parties.map((p) => [p, { cumulative: [] }]));

/** The participant's active contract ids for `parties` at `offset`, read as raw HTTP, sorted. */
export async function participantActive(sandbox: Sandbox, parties: readonly string[], offset: number): Promise<string[]> {
  const r = await call(sandbox.url, 'POST', '/v2/state/active-contracts', { body: { activeAtOffset: offset, eventFormat: { filtersByParty: filtersOf(parties), verbose: false } } });
  expect(r.status, r.text.slice(0, 300)).toBe(200);
  return (r.json as { contractEntry: { JsActiveContract?: { createdEvent: { contractId: string } } } }[])
    .map((e) => e.contractEntry.JsActiveContract?.createdEvent.contractId)
    .filter((id): id is string => id !== undefined)
    .sort();
}

/** The contracts created in each transaction of `parties` in `(after, upTo]`, read as raw HTTP: `offset contract-id` lines, in order. */
export async function participantCreates(sandbox: Sandbox, parties: readonly string[], after: number, upTo: number): Promise<string[]> {
  const r = await call(sandbox.url, 'POST', '/v2/updates', {
    body: {
      beginExclusive: after,
      endInclusive: upTo,
      updateFormat: { includeTransactions: { eventFormat: { filtersByParty: filtersOf(parties), verbose: false }, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' } },
    },
  });
  expect(r.status, r.text.slice(0, 300)).toBe(200);
  type Element = { update: { Transaction?: { value: { offset: number; events: { CreatedEvent?: { contractId: string } }[] } } } };
  return (r.json as Element[]).flatMap((e) => {
    const t = e.update.Transaction?.value;
    return t === undefined ? [] : t.events.flatMap((ev) => (ev.CreatedEvent === undefined ? [] : [`${t.offset} ${ev.CreatedEvent.contractId}`]));
  });
}
