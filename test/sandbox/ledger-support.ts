import { expect } from 'vitest';
import type { Command } from '../../src/schemas/commands.js';
import type { JsonValue } from '../../src/schemas/primitives.js';
import type { LedgerUpdate, Sandbox } from '../../src/sandbox/index.js';
import { rightKey, type RightRecord } from '../../src/sandbox/state/users-store.js';
import { call, type CallOptions, type RawResponse } from '../support/sandbox-http.js';

/** Test helpers shared by the ledger, updates, commands and parties tests. */

export type Shape = 'TRANSACTION_SHAPE_ACS_DELTA' | 'TRANSACTION_SHAPE_LEDGER_EFFECTS';
export const ACS: Shape = 'TRANSACTION_SHAPE_ACS_DELTA';
export const LE: Shape = 'TRANSACTION_SHAPE_LEDGER_EFFECTS';

/** `Filters` with the given cumulative filters (none: a wildcard). */
export function filters(...cumulative: unknown[]): { cumulative: unknown[] } {
  return { cumulative: cumulative.map((identifierFilter) => ({ identifierFilter })) };
}

export const wildcard = (includeCreatedEventBlob = false) => ({ WildcardFilter: { value: { includeCreatedEventBlob } } });
export const templateFilter = (templateId: string, includeCreatedEventBlob = false) => ({ TemplateFilter: { value: { templateId, includeCreatedEventBlob } } });
export const interfaceFilter = (interfaceId: string, includeInterfaceView = false, includeCreatedEventBlob = false) => ({
  InterfaceFilter: { value: { interfaceId, includeInterfaceView, includeCreatedEventBlob } },
});

/** An `EventFormat` for parties (or any party) with the same filters each. */
export function eventFormat(parties: readonly string[] | 'any', f: unknown = filters()): Record<string, unknown> {
  if (parties === 'any') return { filtersByParty: {}, filtersForAnyParty: f, verbose: false };
  return { filtersByParty: Object.fromEntries(parties.map((p) => [p, f])), verbose: false };
}

/** An `UpdateFormat` with transactions of `shape` (and optionally reassignments and topology). */
export function updateFormat(
  parties: readonly string[] | 'any',
  shape: Shape = ACS,
  options: { filters?: unknown; reassignments?: boolean; topology?: readonly string[] } = {},
): Record<string, unknown> {
  const ef = eventFormat(parties, options.filters ?? filters());
  return {
    includeTransactions: { eventFormat: ef, transactionShape: shape },
    ...(options.reassignments ? { includeReassignments: ef } : {}),
    ...(options.topology ? { includeTopologyEvents: { includeParticipantAuthorizationEvents: { parties: options.topology } } } : {}),
  };
}

/** `POST /v2/updates` through the spec-checking raw client. */
export function postUpdates(sandbox: Sandbox, body: unknown, query = '', options: Omit<CallOptions, 'body'> = {}): Promise<RawResponse> {
  return call(sandbox.url, 'POST', `/v2/updates${query}`, { ...options, body });
}

type Element = { update: Record<string, { value?: Record<string, unknown> } & Record<string, unknown>> };

/** The kind (`Transaction`, `OffsetCheckpoint`, ...) and offset of each element of an updates answer. */
export function elementsOf(json: unknown): { kind: string; offset: number; value: Record<string, unknown> }[] {
  expect(Array.isArray(json)).toBe(true);
  return (json as Element[]).map((e) => {
    const kind = Object.keys(e.update)[0] as string;
    const value = (e.update[kind] as { value: Record<string, unknown> }).value;
    return { kind, offset: value['offset'] as number, value };
  });
}

/** Which updates a request should return, computed independently from the sandbox's own log. */
export interface Visibility {
  readonly transactions?: { readonly shape: Shape; readonly parties: readonly string[] | 'any'; readonly templates?: readonly string[] };
  readonly reassignments?: { readonly parties: readonly string[] | 'any' };
  readonly topology?: readonly string[] | 'any';
}

function hostedAmong(sandbox: Sandbox, parties: readonly string[] | 'any'): (p: string) => boolean {
  return (p) => sandbox.state.parties.get(p)?.isLocal === true && (parties === 'any' || parties.includes(p));
}

/** True when `u` is visible under `v`. */
export function isVisible(sandbox: Sandbox, u: LedgerUpdate, v: Visibility): boolean {
  switch (u.kind) {
    case 'Transaction': {
      const t = v.transactions;
      if (!t) return false;
      const reads = hostedAmong(sandbox, t.parties);
      const templateOk = (id: string) => !t.templates || t.templates.some((q) => id.endsWith(`:${q}`));
      return u.events.some((e) => {
        if (!templateOk(e.templateId)) return false;
        if (t.shape === LE) return e.witnesses.some(reads);
        if (!e.acsDelta) return false;
        return e.kind === 'Created' ? [...e.signatories, ...e.observers].some(reads) : e.stakeholders.some(reads);
      });
    }
    case 'Reassignment':
      return v.reassignments !== undefined && u.events.some((e) => e.stakeholders.some(hostedAmong(sandbox, v.reassignments?.parties ?? [])));
    case 'TopologyTransaction':
      return v.topology !== undefined && (v.topology === 'any' || v.topology.includes(u.party));
  }
}

/**
 * Checks an updates answer against the sandbox's log: element offsets (checkpoints included) strictly
 * increase (decrease when `descending`), and the updates are exactly the visible ones of the range — or,
 * when `truncated`, the first ones of them.
 */
export function checkAgainstLog(
  sandbox: Sandbox,
  json: unknown,
  v: Visibility,
  range: { beginExclusive: number; endInclusive?: number; descending?: boolean; truncated?: boolean },
): ReturnType<typeof elementsOf> {
  const elements = elementsOf(json);
  const offsets = elements.map((e) => e.offset);
  for (let i = 1; i < offsets.length; i++) {
    const ordered = range.descending ? (offsets[i] as number) < (offsets[i - 1] as number) : (offsets[i] as number) > (offsets[i - 1] as number);
    if (!ordered) expect.fail(`offsets must strictly ${range.descending ? 'decrease' : 'increase'}: ${offsets.slice(Math.max(0, i - 3), i + 3).join(',')} at ${i}`);
  }
  const actual = elements.filter((e) => e.kind !== 'OffsetCheckpoint').map((e) => e.offset);
  // A truncated answer holds every visible update up to its last element (from its first, descending).
  let begin = range.beginExclusive;
  let end = range.endInclusive;
  if (range.truncated && actual.length > 0) {
    if (range.descending) begin = Math.max(begin, (actual.at(-1) as number) - 1);
    else end = Math.min(end ?? Number.MAX_SAFE_INTEGER, actual.at(-1) as number);
  }
  const expected = sandbox
    .updates({ beginExclusive: begin, ...(end === undefined ? {} : { endInclusive: end }) })
    .filter((u) => isVisible(sandbox, u, v))
    .map((u) => u.offset);
  if (range.descending) expected.reverse();
  if (range.truncated && actual.length === 0) expect(actual).toEqual([]);
  else expect(actual).toEqual(expected);
  return elements;
}

/** Adds a user with rights to the sandbox's user store (the users routes are not under test here). */
export function addUser(sandbox: Sandbox, id: string, rights: readonly RightRecord[]): void {
  sandbox.state.users.add({
    id,
    primaryParty: '',
    isDeactivated: false,
    annotations: {},
    resourceVersion: 0,
    identityProviderId: '',
    primaryPartyAuthentication: false,
    rights: new Map(rights.map((r) => [rightKey(r), r])),
  });
}

/** An `Iou` create command. */
export function createIou(issuer: string, owner: string, extra: Record<string, unknown> = {}): Command {
  return {
    CreateCommand: { templateId: '#ledger-rx-demo:Iou:Iou', createArguments: { issuer, owner, currency: 'USD', amount: '10.0000000000', observers: [], ...extra } as JsonValue },
  };
}

/** Waits `ms`. */
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
