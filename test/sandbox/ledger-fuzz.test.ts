import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { call } from '../support/sandbox-http.js';

/**
 * No input may make the ledger routes answer 500 (or crash the sandbox): random JSON, and near-valid
 * bodies whose fields take random JSON values. Every JSON answer is also checked against the spec by
 * `call`.
 */
let sandbox: Sandbox;
let alice: string;
beforeAll(async () => {
  sandbox = await startSandbox({ seed: 40, synchronizers: 2, listWaitMs: 1, maxListElements: 20 });
  alice = sandbox.partyId('Alice');
});
afterAll(() => sandbox.close());

const value = fc.jsonValue({ maxDepth: 4 });
/** Every path (of keys and indexes) inside a JSON value. */
function paths(v: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (typeof v !== 'object' || v === null) return [prefix];
  const keys: (string | number)[] = Array.isArray(v) ? v.map((_, i) => i) : Object.keys(v);
  return [prefix, ...keys.flatMap((k) => paths((v as Record<string | number, unknown>)[k], [...prefix, k]))];
}

/** A valid-looking body with one nested field (or the whole body) replaced by random JSON, or a key removed. */
const spoiled = (base: () => Record<string, unknown>) =>
  fc.tuple(fc.nat(), value, fc.boolean()).map(([i, v, remove]) => {
    const b = structuredClone(base());
    const all = paths(b);
    const path = all[i % all.length] as (string | number)[];
    if (path.length === 0) return v;
    let parent = b as Record<string | number, unknown>;
    for (const k of path.slice(0, -1)) parent = parent[k] as Record<string | number, unknown>;
    const last = path[path.length - 1] as string | number;
    if (remove && !Array.isArray(parent)) delete parent[last];
    else parent[last] = v;
    return b;
  });

const routes: { path: string; query: fc.Arbitrary<string>; body: () => Record<string, unknown> }[] = [
  {
    path: '/v2/updates',
    query: fc.constantFrom('', '?limit=3', '?stream_idle_timeout_ms=1', '?limit=-1', '?limit=x', '?limit=3&stream_idle_timeout_ms=0'),
    body: () => ({
      beginExclusive: 0,
      endInclusive: sandbox.ledgerEnd(),
      descendingOrder: false,
      updateFormat: { includeTransactions: { eventFormat: { filtersByParty: { [alice]: { cumulative: [] } } }, transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' } },
    }),
  },
  {
    path: '/v2/commands/async/submit',
    query: fc.constant(''),
    body: () => ({
      commands: [{ CreateCommand: { templateId: '#ledger-rx-demo:Iou:Iou', createArguments: { issuer: alice, owner: alice, observers: [] } } }],
      commandId: 'fuzz',
      actAs: [alice],
      userId: 'fuzzer',
      deduplicationPeriod: { DeduplicationDuration: { value: { seconds: 1, nanos: 0 } } },
    }),
  },
  {
    path: '/v2/commands/submit-and-wait-for-reassignment',
    query: fc.constant(''),
    body: () => ({
      reassignmentCommands: { userId: 'fuzzer', commandId: 'fuzz', submitter: alice, commands: [{ command: { AssignCommand: { value: { reassignmentId: '0f', source: 'a::b', target: 'c::d' } } } }] },
      eventFormat: { filtersByParty: { [alice]: {} } },
    }),
  },
  { path: '/v2/parties', query: fc.constant(''), body: () => ({ partyIdHint: 'Fuzz', synchronizerId: sandbox.state.synchronizers[0]?.id, localMetadata: { annotations: {} } }) },
];

describe('fuzzing the ledger routes', () => {
  it.each(routes)('$path never answers 500', async ({ path, query, body }) => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(value, spoiled(body)), query, async (b, q) => {
        const r = await call(sandbox.url, 'POST', `${path}${q}`, { body: b });
        expect(r.status, `${JSON.stringify(b)} → ${r.text}`).toBeLessThan(500);
      }),
      { numRuns: Number(process.env["LEDGER_RX_FUZZ_RUNS"] ?? 100), seed: 4711 },
    );
  });

  it('GET routes with random query strings never answer 500', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('/v2/parties', '/v2/state/ledger-end', '/v2/state/latest-pruned-offsets'), fc.string({ maxLength: 20 }), fc.string({ maxLength: 10 }), async (path, key, v) => {
        const r = await call(sandbox.url, 'GET', `${path}?${encodeURIComponent(key)}=${encodeURIComponent(v)}`);
        expect(r.status).toBeLessThan(500);
      }),
      { numRuns: 40, seed: 4712 },
    );
  });
});
