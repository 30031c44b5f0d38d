import fc from 'fast-check';
import { isObservable, lastValueFrom } from 'rxjs';
import { MockAgent } from 'undici';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLedgerClient, type LedgerClient } from '../../src/client/index.js';
import { InvalidArgumentError } from '../../src/errors/index.js';
import { reportFigures } from '../support/ledger-oracle.js';

/**
 * Client-side validation under fuzzing: for every operation, fast-check spoils one to three fields of a
 * valid request — or of its call options — with values the server would refuse (wrong types, empty
 * strings, out-of-range numbers, bad variants, contradictory combinations, malformed instants, unaddressable
 * or malformed ids, event formats without parties, package-id filters, malformed resource versions and
 * annotations) or that are not options at all (a number, a string or `null` for the options object, a
 * non-AbortSignal `signal`). Each call must be
 * rejected with an `InvalidArgumentError` whose `field` names a spoiled field — synchronously for the
 * Observable/iterable methods — and NOTHING may reach the dispatcher (an undici `MockAgent` with
 * `disableNetConnect()` and no interceptor, whose `dispatch` is counted).
 */

const SEED = Number(process.env['LEDGER_RX_FUZZ_SEED'] ?? 777);
const RUNS = Number(process.env['LEDGER_RX_FUZZ_RUNS'] ?? 150);
const MISSING = Symbol('missing');

let agent: MockAgent;
let dispatched: () => number;
let client: LedgerClient;
let tried = 0;
const perOperation: Record<string, number> = {};

beforeAll(() => {
  agent = new MockAgent();
  agent.disableNetConnect();
  const spy = vi.spyOn(agent, 'dispatch');
  dispatched = () => spy.mock.calls.length;
  client = createLedgerClient({ baseUrl: 'http://participant.invalid:7575', dispatcher: agent, token: 'fuzz-token' });
});
afterAll(async () => {
  await client.close();
  await agent.close();
  reportFigures('client-invalid-requests', { seed: SEED, badInputs: tried, ...perOperation });
});

/** The arguments of one call: the request body, the path user id, the call options. */
interface Args {
  request?: unknown;
  userId?: unknown;
  options?: unknown;
}
type Path = readonly (string | number)[];
/** A way to spoil a request: the path of the field (from `Args`), bad values, and the field the error must name. */
interface Spoiler {
  readonly path: Path;
  readonly values: fc.Arbitrary<unknown>;
  readonly field?: string;
  /** Other fields the error may name (a spoiled path id also differs from the body's id). */
  readonly alsoAccept?: readonly string[];
}
interface Operation {
  readonly name: string;
  readonly streaming?: boolean;
  readonly base: () => Args;
  readonly invoke: (c: LedgerClient, a: Args) => unknown;
  readonly spoilers: readonly Spoiler[];
}

const v = <T,>(...values: T[]) => fc.constantFrom(...values);
const notString = v<unknown>(0, 42, -1, true, false, [], {}, ['a'], { a: 1 });
const notStringOrEmpty = fc.oneof(notString, v<unknown>(''));
const requiredString = fc.oneof(notStringOrEmpty, v<unknown>(MISSING, null));
const notArray = v<unknown>('x', 5, true, {}, { 0: 'a' });
const notObject = v<unknown>('x', 5, true, [], [{}]);
const notBoolean = v<unknown>('true', 1, 0, {}, []);
const badInt32 = v<unknown>(1.5, 'x', '1e3', 2 ** 31, -(2 ** 31) - 1, {}, [], true, Number.NaN, Number.POSITIVE_INFINITY);
const badOffset = v<unknown>(-1, -5, 1.5, 'x', '-3', '1.5', 2 ** 60, Number.NaN, {}, [], true, null, MISSING);
const badLimit = v<unknown>(-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, -0.5, '10', {}, null);
/** Text that is not an instant the server parses (`Instant.parse`). */
const badInstant = fc.oneof(
  v<unknown>('yesterday', '2026-13-01T00:00:00Z', '2026-02-30T00:00:00Z', '2026-01-01', '2026-01-01T00:00:00', '2026-01-01 00:00:00Z', '', 'T', '2026-01-01T25:00:00Z', 5, {}),
  fc.string({ maxLength: 12 }).filter((s) => !/^\d{4}-/.test(s)),
);
const badUserId = fc.oneof(v<unknown>('', '.', '..', 5, null, {}, [], true, MISSING, 'ops team', 'a/b', 'x'.repeat(129), 'ünï'));
/** Not a party id (Daml-LF `Party`: 1–255 of letters, digits, `:-_` and space). */
const badParty = v<unknown>('', 'a/b', 'Alice@corp', 'dot.ted', 'p'.repeat(256), 'ü');
/** An options argument that is not a plain object. */
const badOptions = v<unknown>(null, 5, 'x', true, [], [{}], () => undefined, new Date(0), new Map());
/** A `signal` that is not an AbortSignal. */
const badSignal = v<unknown>('x', 5, true, null, {}, [], { aborted: false }, new AbortController());
/** Spoilers of the options argument that every method shares. */
const callOptionSpoilers: readonly Spoiler[] = [
  { path: ['options'], values: badOptions, field: 'options' },
  { path: ['options', 'signal'], values: badSignal },
];

const party = 'Alice::1220aa';
const updateFormat = {
  includeTransactions: { eventFormat: { filtersByParty: { [party]: { cumulative: [] } }, verbose: false }, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' },
};
const createCommand = { CreateCommand: { templateId: '#demo:Iou:Iou', createArguments: { issuer: party } } };
const byTemplate = (templateId: string) => ({ cumulative: [{ identifierFilter: { TemplateFilter: { value: { templateId } } } }] });
const byInterface = (interfaceId: string) => ({ cumulative: [{ identifierFilter: { InterfaceFilter: { value: { interfaceId } } } }] });
/** Event formats the server refuses without looking at its state (docs/server-behavior.md#updates-validation-order step 4). */
const badEventFormat = v<unknown>(
  {},
  { filtersByParty: {} },
  { filtersByParty: null, filtersForAnyParty: null, verbose: true },
  { filtersByParty: { 'a/b': {} } },
  { filtersByParty: { '': {} } },
  { filtersByParty: { [party]: byTemplate('9a1b2c:Iou:Iou') } },
  { filtersByParty: { [party]: byInterface('9a1b2c:Iou:Iface') } },
  { filtersForAnyParty: byTemplate('9a1b2c:Iou:Iou') },
  { filtersForAnyParty: byTemplate('#demo:Iou') },
);

const badVariants = (name: string) =>
  v<unknown>('x', 5, [], {}, { Nope: { value: {} } }, { [name]: 5 }, { [name]: { value: {} }, Other: { value: {} } });

const operations: Operation[] = [
  {
    name: 'submit',
    base: () => ({ request: { commands: [createCommand], commandId: 'cmd-1', actAs: [party] }, options: {} }),
    invoke: (c, a) => c.submit(a.request as never, a.options as never),
    spoilers: [
      ...callOptionSpoilers,
      { path: ['request'], values: v<unknown>(null, 'x', 5, [], true), field: '$' },
      { path: ['request', 'commandId'], values: requiredString },
      { path: ['request', 'actAs'], values: fc.oneof(notArray, v<unknown>([], [''], [5], [null], MISSING, null)) },
      { path: ['request', 'commands'], values: fc.oneof(notArray, v<unknown>([], [{}], [5], [{ Nope: {} }], [{ CreateCommand: 5 }], [{ CreateCommand: { createArguments: {} } }], MISSING, null)) },
      { path: ['request', 'userId'], values: notString },
      { path: ['request', 'readAs'], values: fc.oneof(notArray, v<unknown>([5], [{}], [null])) },
      { path: ['request', 'workflowId'], values: notString },
      { path: ['request', 'submissionId'], values: notString },
      { path: ['request', 'synchronizerId'], values: notString },
      {
        path: ['request', 'deduplicationPeriod'],
        values: fc.oneof(
          badVariants('DeduplicationDuration'),
          v<unknown>(
            { DeduplicationDuration: { value: { seconds: -1, nanos: 0 } } },
            { DeduplicationDuration: { value: { seconds: 0, nanos: -1 } } },
            { DeduplicationDuration: { value: { seconds: 'x', nanos: 0 } } },
            { DeduplicationOffset: { value: -3 } },
            { DeduplicationOffset: { value: 'abc' } },
          ),
        ),
      },
      { path: ['request', 'minLedgerTimeAbs'], values: badInstant },
      { path: ['request', 'minLedgerTimeRel'], values: v<unknown>('1s', 5, { seconds: 'a', nanos: 0 }, { seconds: 1 }, [], { seconds: 1, nanos: 1.5 }) },
      { path: ['request', 'tapsMaxPasses'], values: fc.oneof(badInt32, v<unknown>(0, -1)) },
      { path: ['request', 'disclosedContracts'], values: fc.oneof(notArray, v<unknown>([{}], [{ createdEventBlob: 5 }], [5])) },
      { path: ['request', 'packageIdSelectionPreference'], values: fc.oneof(notArray, v<unknown>([1], [{}])) },
      { path: ['request', 'prefetchContractKeys'], values: fc.oneof(notArray, v<unknown>([{}], [{ templateId: 5, contractKey: 1 }], [{ templateId: 'a', contractKey: 1, limit: 0 }])) },
    ],
  },
  {
    name: 'submit (both min ledger times)',
    base: () => ({ request: { commands: [createCommand], commandId: 'cmd-1', actAs: [party], minLedgerTimeAbs: '2026-01-01T00:00:00Z' } }),
    invoke: (c, a) => c.submit(a.request as never),
    spoilers: [{ path: ['request', 'minLedgerTimeRel'], values: v<unknown>({ seconds: 1, nanos: 0 }, { seconds: 0, nanos: 5 }) }],
  },
  ...(['updates', 'iterateUpdates'] as const).map(
    (method): Operation => ({
      name: method,
      streaming: true,
      base: () => ({ request: { beginExclusive: 10, updateFormat }, options: {} }),
      invoke: (c, a) => (method === 'updates' ? c.updates(a.request as never, a.options as never) : c.iterateUpdates(a.request as never, a.options as never)),
      spoilers: [
        ...callOptionSpoilers,
        { path: ['request'], values: v<unknown>(null, 'x', 5, []), field: '$' },
        { path: ['request', 'beginExclusive'], values: badOffset },
        { path: ['request', 'endInclusive'], values: v<unknown>(0, -5, 3, 9, 'x', 1.5, {}, 2 ** 60) },
        { path: ['request', 'descendingOrder'], values: fc.oneof(notBoolean, v<unknown>(true)) },
        { path: ['request', 'verbose'], values: fc.oneof(notBoolean, v<unknown>(true)) },
        { path: ['request', 'filter'], values: v<unknown>({ filtersByParty: {} }, { filtersByParty: { [party]: {} } }, 'x', 5) },
        {
          path: ['request', 'updateFormat'],
          values: v<unknown>(
            'x',
            5,
            [],
            { includeTransactions: 5 },
            { includeTransactions: { eventFormat: { filtersByParty: 5 }, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' } },
            { includeTransactions: { eventFormat: { filtersByParty: {} }, transactionShape: 'TRANSACTION_SHAPE_TREE' } },
            { includeTransactions: { eventFormat: { filtersByParty: { [party]: { cumulative: [{ identifierFilter: { Nope: {} } }] } } }, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' } },
            { includeReassignments: { filtersByParty: [] } },
            { includeReassignments: { filtersByParty: {} } },
            { includeTransactions: { eventFormat: { filtersForAnyParty: {} }, transactionShape: 'TRANSACTION_SHAPE_UNSPECIFIED' } },
            { includeTransactions: { eventFormat: { filtersForAnyParty: {} } } },
            { includeTopologyEvents: { includeParticipantAuthorizationEvents: { parties: ['a/b'] } } },
            { includeTopologyEvents: { includeParticipantAuthorizationEvents: { parties: [party, ''] } } },
          ),
        },
        { path: ['request', 'updateFormat', 'includeTransactions', 'eventFormat'], values: badEventFormat },
        { path: ['request', 'updateFormat', 'includeTransactions', 'transactionShape'], values: v<unknown>('TRANSACTION_SHAPE_UNSPECIFIED', 'UNRECOGNIZED', MISSING, null, 5) },
        { path: ['options', 'limit'], values: badLimit },
        { path: ['options', 'streamIdleTimeoutMs'], values: badLimit },
        { path: ['options', 'validate'], values: notBoolean },
        { path: ['options', 'rawText'], values: fc.oneof(notBoolean, v<unknown>(null)) },
      ],
    }),
  ),
  {
    name: 'updates (no update format)',
    streaming: true,
    base: () => ({ request: { beginExclusive: 10, updateFormat }, options: {} }),
    invoke: (c, a) => c.updates(a.request as never, a.options as never),
    spoilers: [{ path: ['request', 'updateFormat'], values: v<unknown>(MISSING, null) }],
  },
  {
    name: 'updates (legacy filter)',
    streaming: true,
    base: () => ({ request: { beginExclusive: 10, filter: { filtersByParty: { [party]: {} } }, verbose: true }, options: {} }),
    invoke: (c, a) => c.updates(a.request as never, a.options as never),
    spoilers: [
      { path: ['request', 'filter'], values: fc.oneof(badEventFormat, v<unknown>(MISSING, null, 5)), alsoAccept: ['updateFormat'] },
      { path: ['request', 'verbose'], values: notBoolean },
    ],
  },
  ...(['listVettedPackages', 'listAllVettedPackages'] as const).map(
    (method): Operation => ({
      name: method,
      streaming: method === 'listAllVettedPackages',
      base: () => ({ request: { pageSize: 2 }, options: {} }),
      invoke: (c, a) => (method === 'listVettedPackages' ? c.listVettedPackages(a.request as never, a.options as never) : c.listAllVettedPackages(a.request as never, a.options as never)),
      spoilers: [
        ...callOptionSpoilers,
        { path: ['request'], values: v<unknown>(null, 'x', 5, []), field: '$' },
        { path: ['request', 'pageSize'], values: fc.oneof(badInt32, v<unknown>(-1, -100)) },
        { path: ['request', 'pageToken'], values: notString },
        { path: ['request', 'packageMetadataFilter'], values: fc.oneof(notObject, v<unknown>({ packageIds: 5 }, { packageIds: [1] }, { packageNamePrefixes: 'x' })) },
        { path: ['request', 'topologyStateFilter'], values: fc.oneof(notObject, v<unknown>({ synchronizerIds: 5 }, { participantIds: [{}] })) },
      ],
    }),
  ),
  {
    name: 'updateVettedPackages',
    base: () => ({ request: { changes: [{ operation: { Vet: { value: { packages: [{ packageName: 'demo' }] } } } }] }, options: {} }),
    invoke: (c, a) => c.updateVettedPackages(a.request as never, a.options as never),
    spoilers: [
      ...callOptionSpoilers,
      { path: ['request'], values: v<unknown>(null, 'x', 5, []), field: '$' },
      {
        path: ['request', 'changes'],
        values: fc.oneof(
          notArray,
          v<unknown>(
            MISSING,
            null,
            [5],
            [{}],
            [{ operation: { Empty: {} } }],
            [{ operation: { Vet: 5 } }],
            [{ operation: { Bogus: { value: {} } } }],
            [{ operation: { Vet: { value: { packages: [{ packageId: 'p', packageName: 'n' }] } } } }],
            [{ operation: { Unvet: { value: { packages: [{ packageVersion: '1.0.0' }] } } } }],
            [{ operation: { Vet: { value: { packages: [{}] } } } }],
            [{ operation: { Vet: { value: { packages: 'demo' } } } }],
          ),
        ),
      },
      { path: ['request', 'changes', 0, 'operation', 'Vet', 'value', 'newValidFromInclusive'], values: badInstant },
      { path: ['request', 'changes', 0, 'operation', 'Vet', 'value', 'newValidUntilExclusive'], values: badInstant },
      { path: ['request', 'dryRun'], values: notBoolean },
      { path: ['request', 'synchronizerId'], values: notString },
      { path: ['request', 'expectedTopologySerial'], values: fc.oneof(notObject, v<unknown>({ serial: { Prior: { value: 0 } } }, { serial: { Prior: { value: -1 } } }, { serial: { Nope: {} } }, { serial: 5 })) },
      { path: ['request', 'updateVettedPackagesForceFlags'], values: fc.oneof(notArray, v<unknown>(['NOPE'], [1], ['allow_unvetted_dependencies'])) },
      { path: ['options', 'endpoint'], values: v<unknown>('v3', 'list', 1, true, {}, null) },
    ],
  },
  {
    name: 'submitAndWaitForReassignment',
    base: () => ({
      request: { reassignmentCommands: { commandId: 'r-1', submitter: party, commands: [{ command: { UnassignCommand: { value: { contractId: '00ab', source: 'a::1220', target: 'b::1220' } } } }] } },
      options: {},
    }),
    invoke: (c, a) => c.submitAndWaitForReassignment(a.request as never, a.options as never),
    spoilers: [
      ...callOptionSpoilers,
      { path: ['request'], values: v<unknown>(null, 'x', 5, []), field: '$' },
      { path: ['request', 'reassignmentCommands'], values: fc.oneof(notObject, v<unknown>(MISSING, null)) },
      { path: ['request', 'reassignmentCommands', 'commandId'], values: requiredString },
      { path: ['request', 'reassignmentCommands', 'submitter'], values: requiredString },
      { path: ['request', 'reassignmentCommands', 'userId'], values: notString },
      {
        path: ['request', 'reassignmentCommands', 'commands'],
        values: fc.oneof(notArray, v<unknown>([], [{}], [{ command: { Empty: {} } }], [{ command: { AssignCommand: { value: {} } } }], [{ command: { Nope: { value: {} } } }], MISSING)),
      },
      { path: ['request', 'eventFormat'], values: fc.oneof(notObject, badEventFormat, v<unknown>({ filtersByParty: 5 }, { filtersByParty: { [party]: { cumulative: 'x' } } })) },
    ],
  },
  {
    name: 'updateUser',
    base: () => ({ userId: 'alice', request: { user: { id: 'alice', primaryParty: party }, updateMask: { paths: ['primary_party'] } }, options: {} }),
    invoke: (c, a) => c.updateUser(a.userId as never, a.request as never, a.options as never),
    spoilers: [
      ...callOptionSpoilers,
      { path: ['userId'], values: badUserId, alsoAccept: ['user.id'] },
      { path: ['request'], values: v<unknown>(null, 'x', 5, []), field: '$' },
      { path: ['request', 'user'], values: fc.oneof(notObject, v<unknown>(MISSING, null)) },
      { path: ['request', 'user', 'id'], values: fc.oneof(requiredString, v<unknown>('bob', 'Alice', 'alice ')) },
      { path: ['request', 'user', 'isDeactivated'], values: notBoolean },
      { path: ['request', 'user', 'primaryParty'], values: fc.oneof(notString, badParty.filter((p) => p !== '')) },
      { path: ['request', 'user', 'identityProviderId'], values: fc.oneof(notString, v<unknown>('idp@acme', 'ü', 'i'.repeat(256))) },
      {
        path: ['request', 'user', 'metadata'],
        values: fc.oneof(
          notObject,
          v<unknown>(
            { annotations: 5 },
            { annotations: { a: 1 } },
            { resourceVersion: 7 },
            { resourceVersion: 'abc' },
            { resourceVersion: '1.5' },
            { resourceVersion: ' 3' },
            { resourceVersion: '99999999999999999999' },
            { annotations: { 'a b': 'x' } },
            { annotations: { '/x': 'y' } },
            { annotations: { 'a/b/c': 'y' } },
            { annotations: { big: 'x'.repeat(262_144) } },
          ),
        ),
      },
      {
        path: ['request', 'updateMask'],
        values: fc.oneof(
          notObject,
          v<unknown>(MISSING, null, {}, { paths: [] }, { paths: ['primaryParty'] }, { paths: ['nope'] }, { paths: ['metadata', 'metadata'] }, { paths: 5 }, { paths: [5] }),
        ),
      },
    ],
  },
  ...(['revokeUserRights', 'grantUserRights'] as const).map(
    (method): Operation => ({
      name: method,
      base: () => ({ userId: 'alice', request: { userId: 'alice', rights: [{ kind: { CanActAs: { value: { party } } } }] }, options: {} }),
      invoke: (c, a) =>
        method === 'revokeUserRights'
          ? c.revokeUserRights(a.userId as never, a.request as never, a.options as never)
          : c.grantUserRights(a.userId as never, a.request as never, a.options as never),
      spoilers: [
        ...callOptionSpoilers,
        { path: ['userId'], values: badUserId },
        { path: ['request'], values: v<unknown>(null, 'x', 5, []), field: '$' },
        { path: ['request', 'userId'], values: fc.oneof(requiredString, v<unknown>('bob')) },
        {
          path: ['request', 'rights'],
          values: fc.oneof(
            notArray,
            v<unknown>([5], [{}], [{ kind: { Empty: {} } }], [{ kind: 5 }], [{ kind: { Nope: { value: {} } } }], [{ kind: { CanActAs: { value: { party: 5 } } } }]),
            badParty.map((p) => [{ kind: { ParticipantAdmin: { value: {} } } }, { kind: { CanReadAs: { value: { party: p } } } }]),
          ),
        },
        { path: ['request', 'rights', 0, 'kind', 'CanActAs', 'value', 'party'], values: badParty },
        { path: ['request', 'identityProviderId'], values: fc.oneof(notString, v<unknown>('idp@acme', 'a|b')) },
      ],
    }),
  ),
  ...(['getUser', 'listUserRights'] as const).map(
    (method): Operation => ({
      name: method,
      base: () => ({ userId: 'alice', options: {} }),
      invoke: (c, a) => (method === 'getUser' ? c.getUser(a.userId as never, a.options as never) : c.listUserRights(a.userId as never, a.options as never)),
      spoilers: [...callOptionSpoilers, { path: ['userId'], values: badUserId }],
    }),
  ),
  {
    name: 'createUser',
    base: () => ({ request: { user: { id: 'carol' }, rights: [] }, options: {} }),
    invoke: (c, a) => c.createUser(a.request as never, a.options as never),
    spoilers: [
      ...callOptionSpoilers,
      { path: ['request'], values: v<unknown>(null, 'x', 5, []), field: '$' },
      { path: ['request', 'user'], values: fc.oneof(notObject, v<unknown>(MISSING, null)) },
      { path: ['request', 'user', 'id'], values: requiredString },
      { path: ['request', 'user', 'isDeactivated'], values: notBoolean },
      { path: ['request', 'rights'], values: fc.oneof(notArray, v<unknown>([5], [{ kind: { Empty: {} } }], [{ kind: { Nope: { value: {} } } }])) },
    ],
  },
  {
    name: 'allocateParty',
    base: () => ({ request: { partyIdHint: 'Zed' }, options: {} }),
    invoke: (c, a) => c.allocateParty(a.request as never, a.options as never),
    spoilers: [
      ...callOptionSpoilers,
      { path: ['request'], values: v<unknown>(null, 'x', 5, []), field: '$' },
      { path: ['request', 'partyIdHint'], values: notString },
      { path: ['request', 'identityProviderId'], values: notString },
      { path: ['request', 'synchronizerId'], values: notString },
      { path: ['request', 'userId'], values: notString },
      { path: ['request', 'localMetadata'], values: fc.oneof(notObject, v<unknown>({ annotations: 'x' })) },
    ],
  },
  // the methods without a request: only their options can be wrong
  ...(['version', 'ledgerEnd', 'latestPrunedOffsets', 'listParties', 'listPackages'] as const).map(
    (method): Operation => ({
      name: method,
      base: () => ({ options: {} }),
      invoke: (c, a) => c[method](a.options as never),
      spoilers: callOptionSpoilers,
    }),
  ),
];

/** The `InvalidArgumentError.field` a spoiler must produce: its path below the request/options, or `userId`. */
function expectedField(s: Spoiler): string {
  if (s.field !== undefined) return s.field;
  const [root, ...rest] = s.path;
  if (root === 'userId') return 'userId';
  let out = '';
  for (const k of rest) out += typeof k === 'number' ? `[${k}]` : out === '' ? k : `.${k}`;
  return out;
}

/** True when `field` is `expected` or a field inside it. */
function names(field: string, expected: string): boolean {
  return field === expected || field.startsWith(`${expected}.`) || field.startsWith(`${expected}[`);
}

function spoil(base: Args, edits: readonly (readonly [Spoiler, unknown])[]): Args {
  const args = structuredClone(base) as Record<string, unknown>;
  for (const [s, value] of edits) {
    let parent: Record<string | number, unknown> = args;
    for (const k of s.path.slice(0, -1)) {
      const next = parent[k];
      if (typeof next !== 'object' || next === null) {
        parent = undefined as never;
        break;
      }
      parent = next as Record<string | number, unknown>;
    }
    if (!parent) continue; // an earlier edit replaced the container: this edit has nothing to spoil
    const last = s.path[s.path.length - 1] as string | number;
    if (value === MISSING) delete parent[last];
    else parent[last] = value;
  }
  return args as Args;
}

/** Calls the operation; returns how it failed and whether synchronously. */
async function attempt(op: Operation, args: Args): Promise<{ error: unknown; sync: boolean }> {
  let result: unknown;
  try {
    result = op.invoke(client, args);
  } catch (error) {
    return { error, sync: true };
  }
  try {
    if (isObservable(result)) await lastValueFrom(result, { defaultValue: undefined });
    else if (result && typeof (result as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function') {
      for await (const _ of result as AsyncIterable<unknown>) void _;
    } else await result;
    return { error: undefined, sync: false };
  } catch (error) {
    return { error, sync: false };
  }
}

describe('the client rejects invalid requests before the network', () => {
  it.each(operations.map((op) => [op.name, op] as const))('%s: the valid base request does reach the dispatcher (the harness is not vacuous)', async (_name, op) => {
    const before = dispatched();
    const { error } = await attempt(op, op.base());
    expect(error).not.toBeInstanceOf(InvalidArgumentError);
    expect(dispatched()).toBe(before + 1);
  });

  it.each(operations.map((op) => [op.name, op] as const))('%s: every spoiled request is an InvalidArgumentError naming a spoiled field, and nothing is sent', async (name, op) => {
    // edits print as [spoiler index, value] in counterexamples
    const edit = fc.nat({ max: op.spoilers.length - 1 }).chain((i) => (op.spoilers[i] as Spoiler).values.map((value) => [i, value] as const));
    await fc.assert(
      fc.asyncProperty(fc.array(edit, { minLength: 1, maxLength: 3 }), async (edits) => {
        const before = dispatched();
        const spoilers = edits.map(([i, value]) => [op.spoilers[i] as Spoiler, value] as const);
        const { error, sync } = await attempt(op, spoil(op.base(), spoilers));
        tried++;
        perOperation[name] = (perOperation[name] ?? 0) + 1;
        const fields = spoilers.flatMap(([s]) => [expectedField(s), ...(s.alsoAccept ?? [])]);
        expect(error, `${String(error)} for ${fields.join(', ')}`).toBeInstanceOf(InvalidArgumentError);
        const field = (error as InvalidArgumentError).field;
        expect(fields.some((f) => names(field, f)), `error names '${field}', spoiled: ${fields.join(', ')} (seed ${SEED})`).toBe(true);
        expect((error as InvalidArgumentError).message).toContain(field);
        if (op.streaming) expect(sync, 'Observable/iterable methods throw at the call').toBe(true);
        expect(dispatched(), 'nothing is sent').toBe(before);
      }),
      { numRuns: Math.max(20, Math.round(RUNS / 2)), seed: SEED, interruptAfterTimeLimit: 4_000, markInterruptAsFailure: false },
    );
  });

  it('never sent anything for any invalid request', () => {
    // one dispatch per valid base request above, none for the spoiled ones
    expect(dispatched()).toBe(operations.length);
    expect(tried).toBeGreaterThan(operations.length * 20);
  });
});
