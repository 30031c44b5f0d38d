import { expect } from 'vitest';
import { call } from '../../support/sandbox-http.js';

/** What the participant lists at an offset, read with raw HTTP (not through our client). */
export interface RawActiveSet {
  /** Contracts active at the offset (`JsActiveContract`, `JsIncompleteAssigned`), sorted. */
  readonly active: string[];
  /** Contracts in flight (`JsIncompleteUnassigned`), sorted. */
  readonly inFlight: string[];
}

/**
 * The active contracts of every party at `offset`, from `POST /v2/state/active-contracts` sent as raw HTTP
 * (the answer checked against openapi.yaml): the reference an ingest's `active_contracts` must equal. The
 * sandbox must allow a list as long as the set (`maxListElements`).
 */
export async function rawActiveSet(baseUrl: string, offset: number): Promise<RawActiveSet> {
  const r = await call(baseUrl, 'POST', '/v2/state/active-contracts', { body: { activeAtOffset: offset, eventFormat: { filtersForAnyParty: { cumulative: [] }, verbose: false } } });
  expect(r.status, r.text.slice(0, 500)).toBe(200);
  const active: string[] = [];
  const inFlight: string[] = [];
  for (const entry of r.json as { contractEntry: Record<string, Record<string, { contractId?: string; createdEvent?: { contractId: string } }>> }[]) {
    const e = entry.contractEntry;
    if (e['JsActiveContract']) active.push((e['JsActiveContract'] as unknown as { createdEvent: { contractId: string } }).createdEvent.contractId);
    else if (e['JsIncompleteAssigned']) active.push((e['JsIncompleteAssigned'] as unknown as { assignedEvent: { createdEvent: { contractId: string } } }).assignedEvent.createdEvent.contractId);
    else if (e['JsIncompleteUnassigned']) inFlight.push((e['JsIncompleteUnassigned'] as unknown as { createdEvent: { contractId: string } }).createdEvent.contractId);
  }
  return { active: [...new Set(active)].sort(), inFlight: inFlight.sort() };
}
