import { createHash } from 'node:crypto';
import { connect } from 'node:net';
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { strToU8, zipSync } from 'fflate';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { allRoutes as everyRoute } from '../../src/sandbox/routes/all-routes.js';
import { apiVersionProfile, defaultSandboxApiVersion } from '../../src/sandbox/version/api-version-profile.js';
import { rightKey } from '../../src/sandbox/state/users-store.js';
import { identityProvidersOf } from '../../src/sandbox/users/identity-providers-of.js';
import { reportFigures } from '../support/ledger-oracle.js';
import { specAvailable } from '../support/shared-dir.js';
import { specProblems } from '../support/spec-validator.js';

/**
 * Raw HTTP fuzzing of every route of the sandbox (listed from `src/sandbox/routes`): truncated JSON, wrong
 * types, huge numbers, numeric strings, unknown fields, random JSON, deep nesting (10^5 levels), bodies
 * over 8 MiB, wrong methods, and bad headers (content type, Authorization, traceparent). The answer must
 * always be a documented one — 400 text/plain, a JSON error body valid against openapi.yaml, 404, 405 or
 * 413 (or a success) — never a 500, a hang or a crash, and a rejected request must leave the state as it
 * was (ledger end, pruning, users and rights, vetting, parties, identity providers).
 */

/** The routes the fuzzed sandbox (the default release line, 3.6) serves; its answers are checked against openapi-3.6.yaml. */
const allRoutes = everyRoute.filter((r) => !apiVersionProfile(defaultSandboxApiVersion).absentPaths.has(r.pattern));
const specVersion = defaultSandboxApiVersion;

const SEED = Number(process.env['LEDGER_RX_FUZZ_SEED'] ?? 31337);
const RUNS = Number(process.env['LEDGER_RX_FUZZ_RUNS'] ?? 150);
let sandbox: Sandbox;
let tried = 0;
const statuses: Record<string, number> = {};

/** Everything a request could change, as comparable text. */
function snapshot(): string {
  const s = sandbox.state;
  return JSON.stringify({
    end: sandbox.ledgerEnd(),
    pruned: s.ledger.prunedOffset(),
    users: s.users.all().map((u) => ({ ...u, rights: [...u.rights.values()].map(rightKey).sort() })),
    vetting: s.vetting.entries().map((e) => JSON.stringify(e)).sort(),
    parties: s.parties.all().map((p) => JSON.stringify(p)).sort(),
    idps: identityProvidersOf(s).all(),
  });
}

interface Answer {
  readonly status: number;
  readonly contentType: string;
  readonly text: string;
  readonly headers: Record<string, string | string[] | undefined>;
}

/** One raw request with a deadline: a hang fails the test instead of stalling it. */
async function send(method: string, path: string, body?: string | Buffer, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await request(`${sandbox.url}${path}`, {
    method: method as 'GET',
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body }),
    headersTimeout: 10_000,
    bodyTimeout: 10_000,
  });
  const text = await res.body.text();
  return { status: res.statusCode, contentType: String(res.headers['content-type'] ?? ''), text, headers: res.headers };
}

/**
 * The documented answers: success; 400 text/plain decode failure; a JSON Canton error (valid against the
 * spec) with a status from the gRPC mapping; the legacy 404 body; 405 with `Allow`; 413.
 */
function expectDocumented(a: Answer, method: string, path: string, what: string): void {
  statuses[a.status] = (statuses[a.status] ?? 0) + 1;
  expect(a.status, `${what} → ${a.status} ${a.text.slice(0, 300)}`).not.toBe(500);
  // (431: headers over Node's 16 KiB limit are refused by the HTTP parser, before any route)
  expect([200, 400, 401, 403, 404, 405, 409, 413, 431], `${what} → ${a.status} ${a.text.slice(0, 300)}`).toContain(a.status);
  if (a.status === 200 || a.status === 431 || (method === 'HEAD' && a.status === 405)) return;
  if (a.status === 405) {
    expect(a.headers['allow'], what).toBeTruthy();
    return;
  }
  if (a.contentType.startsWith('text/plain')) {
    expect([400, 413], what).toContain(a.status);
    if (a.status === 400) expect(a.text, what).toMatch(/^Invalid value for: /);
    return;
  }
  expect(a.contentType, what).toContain('application/json');
  const json = JSON.parse(a.text) as Record<string, unknown>;
  if (a.status === 404 && 'errors' in json) {
    expect(json['status']).toBe(404); // the legacy body of an unknown route
    return;
  }
  expect(typeof json['code'], what).toBe('string');
  expect(json['code'], what).not.toBe('LEDGER_API_INTERNAL_ERROR');
  if (specAvailable()) expect(specProblems(method, path.split('?')[0] as string, a.status, json, specVersion), `${what}: the error body matches openapi-${specVersion}.yaml`).toEqual([]);
}

/** Sends, checks the answer, and checks that a rejected request changed nothing. */
async function probe(method: string, path: string, body: string | Buffer | undefined, what: string, headers: Record<string, string> = {}): Promise<Answer> {
  const before = snapshot();
  const a = await send(method, path, body, headers);
  tried++;
  expectDocumented(a, method, path, what);
  if (a.status >= 400) expect(snapshot(), `${what}: a rejected request changes nothing`).toBe(before);
  return a;
}

let synchronizer: string;
let otherSynchronizer: string;
let contractId: string;
let transactionHash: string;
let alice: string;
let end: number;

/** A length-delimited protobuf field (short values only). */
const protoField = (field: number, value: Uint8Array): Uint8Array => Uint8Array.from([field * 8 + 2, value.length, ...value]);

/**
 * The smallest DAR the participant accepts: one archive whose Daml-LF 2 package has only its metadata
 * (`fuzz-dar` 1.0.0) and whose hash is its payload's SHA-256.
 */
function smallDar(): { bytes: Buffer; packageId: string } {
  const pkg = Uint8Array.from([...protoField(2, strToU8('fuzz-dar')), ...protoField(2, strToU8('1.0.0')), ...protoField(4, Uint8Array.from([8, 0, 16, 1]))]);
  const payload = Uint8Array.from([...protoField(3, strToU8('1')), ...protoField(4, pkg)]);
  const packageId = createHash('sha256').update(payload).digest('hex');
  const archive = Uint8Array.from([...protoField(3, payload), 34, 64, ...strToU8(packageId)]);
  const manifest = 'Manifest-Version: 1.0\nMain-Dalf: fuzz.dalf\nDalfs: fuzz.dalf\nFormat: daml-lf\n';
  return { bytes: Buffer.from(zipSync({ 'META-INF/MANIFEST.MF': strToU8(manifest), 'fuzz.dalf': archive })), packageId };
}
const dar = smallDar();

/** A valid request per route (the fuzzing spoils these), keyed `METHOD pattern`; `bytes` is a binary body (DAR uploads). */
function validRequests(): Record<string, { path: string; body?: unknown; bytes?: Buffer }> {
  const format = { includeTransactions: { eventFormat: { filtersByParty: {}, filtersForAnyParty: { cumulative: [] } }, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' } };
  const vet = { changes: [{ operation: { Vet: { value: { packages: [{ packageName: 'ledger-rx-extras' }] } } } }], dryRun: true, synchronizerId: synchronizer };
  return {
    'GET /v2/version': { path: '/v2/version' },
    'GET /v2/state/ledger-end': { path: '/v2/state/ledger-end' },
    'GET /v2/state/latest-pruned-offsets': { path: '/v2/state/latest-pruned-offsets' },
    'POST /v2/updates': { path: '/v2/updates?limit=5&stream_idle_timeout_ms=10', body: { beginExclusive: 0, endInclusive: end, updateFormat: format } },
    'POST /v2/updates/get-updates-page': { path: '/v2/updates/get-updates-page', body: { updateFormat: format, maxPageSize: 5 } },
    'POST /v2/state/active-contracts': { path: '/v2/state/active-contracts?limit=5', body: { eventFormat: format.includeTransactions.eventFormat, activeAtOffset: end } },
    'GET /v2/state/active-contracts-page': { path: '/v2/state/active-contracts-page', body: { eventFormat: format.includeTransactions.eventFormat, maxPageSize: 3 } },
    'POST /v2/commands/completions': { path: '/v2/commands/completions?stream_idle_timeout_ms=10', body: { userId: 'fuzzer', parties: [alice] } },
    'POST /v2/commands/command-completions': { path: '/v2/commands/command-completions?stream_idle_timeout_ms=10', body: { parties: [alice] } },
    // the WebSocket endpoints: a plain GET (no upgrade) gets the legacy 404 (test/sandbox/websocket-*.test.ts cover the upgrades)
    'GET /v2/updates': { path: '/v2/updates' },
    'GET /v2/state/active-contracts': { path: '/v2/state/active-contracts' },
    'GET /v2/commands/completions': { path: '/v2/commands/completions' },
    'GET /v2/commands/command-completions': { path: '/v2/commands/command-completions' },
    'POST /v2/commands/async/submit': {
      path: '/v2/commands/async/submit',
      body: {
        commands: [{ CreateCommand: { templateId: '#ledger-rx-demo:Iou:Iou', createArguments: { issuer: alice, owner: alice, currency: 'USD', amount: '1.0', observers: [] } } }],
        commandId: 'fuzz-cmd',
        actAs: [alice],
        userId: 'fuzzer',
      },
    },
    'POST /v2/commands/submit-and-wait-for-reassignment': {
      path: '/v2/commands/submit-and-wait-for-reassignment',
      body: {
        reassignmentCommands: {
          userId: 'fuzzer',
          commandId: 'fuzz-ra',
          submitter: alice,
          commands: [{ command: { UnassignCommand: { value: { contractId, source: synchronizer, target: otherSynchronizer } } } }],
        },
        eventFormat: { filtersByParty: { [alice]: {} } },
      },
    },
    'POST /v2/parties': { path: '/v2/parties', body: { partyIdHint: 'Fuzzed', synchronizerId: synchronizer, localMetadata: { annotations: {} } } },
    'GET /v2/parties': { path: '/v2/parties?pageSize=2' },
    'POST /v2/users': { path: '/v2/users', body: { user: { id: 'fuzz-new', primaryParty: '', isDeactivated: false, identityProviderId: '' }, rights: [] } },
    'GET /v2/users': { path: '/v2/users?pageSize=2' },
    'GET /v2/users/{user-id}': { path: '/v2/users/alice' },
    'DELETE /v2/users/{user-id}': { path: '/v2/users/nobody-here' },
    'PATCH /v2/users/{user-id}': { path: '/v2/users/alice', body: { user: { id: 'alice', isDeactivated: false }, updateMask: { paths: ['is_deactivated'] } } },
    'GET /v2/users/{user-id}/rights': { path: '/v2/users/alice/rights' },
    'POST /v2/users/{user-id}/rights': { path: '/v2/users/alice/rights', body: { userId: 'alice', rights: [{ kind: { CanReadAs: { value: { party: alice } } } }] } },
    'PATCH /v2/users/{user-id}/rights': { path: '/v2/users/alice/rights', body: { userId: 'alice', rights: [{ kind: { CanExecuteAs: { value: { party: alice } } } }] } },
    'GET /v2/authenticated-user': { path: '/v2/authenticated-user' },
    'GET /v2/packages': { path: '/v2/packages' },
    'GET /v2/packages/{package-id}': { path: `/v2/packages/${dar.packageId}` },
    'GET /v2/packages/{package-id}/status': { path: `/v2/packages/${dar.packageId}/status` },
    'POST /v2/dars': { path: `/v2/dars?vetAllPackages=true&synchronizerId=${encodeURIComponent(synchronizer)}`, bytes: dar.bytes },
    'POST /v2/packages': { path: '/v2/packages?vetAllPackages=false', bytes: dar.bytes },
    'POST /v2/package-vetting/list': { path: '/v2/package-vetting/list', body: { pageSize: 2 } },
    'POST /v2/package-vetting/update': { path: '/v2/package-vetting/update', body: vet },
    'POST /v2/updates/update-by-hash': { path: '/v2/updates/update-by-hash', body: { transactionHash, updateFormat: format } },
    'POST /v2/commands/completion-by-hash': { path: '/v2/commands/completion-by-hash', body: { transactionHash } },
  };
}

beforeAll(async () => {
  sandbox = await startSandbox({ seed: 30, synchronizers: 2, listWaitMs: 5, maxListElements: 20, checkpointIntervalMs: 3_600_000 }); // no timer moves the ledger end under the snapshots
  alice = sandbox.partyId('Alice');
  synchronizer = sandbox.state.synchronizers[0]?.id as string;
  otherSynchronizer = sandbox.state.synchronizers[1]?.id as string;
  const created = await sandbox.submit({
    commands: [{ CreateCommand: { templateId: '#ledger-rx-demo:Iou:Iou', createArguments: { issuer: alice, owner: alice, currency: 'USD', amount: '1.0', observers: [] } } }],
    commandId: 'fuzz-setup',
    actAs: [alice],
  });
  contractId = created.contractIds[0] as string;
  const signed = await sandbox.submit(
    {
      commands: [{ CreateCommand: { templateId: '#ledger-rx-demo:Iou:Iou', createArguments: { issuer: alice, owner: alice, currency: 'USD', amount: '1.0', observers: [] } } }],
      commandId: 'fuzz-signed',
      actAs: [alice],
    },
    { externallySigned: true },
  );
  transactionHash = signed.transactionHash as string;
  end = sandbox.ledgerEnd();
  const r = await send('POST', '/v2/users', JSON.stringify({ user: { id: 'alice', primaryParty: alice, isDeactivated: false, identityProviderId: '' }, rights: [] }));
  expect(r.status, r.text).toBe(200);
  const uploaded = await send('POST', `/v2/dars?synchronizerId=${encodeURIComponent(synchronizer)}`, dar.bytes, { 'content-type': 'application/octet-stream' });
  expect(uploaded.status, uploaded.text).toBe(200);
});
afterAll(async () => {
  await sandbox.close();
  reportFigures('sandbox-http-fuzz', { seed: SEED, badInputs: tried, ...Object.fromEntries(Object.entries(statuses).map(([k, n]) => [`status${k}`, n])) });
});

const routeKeys = allRoutes.map((r) => `${r.method} ${r.pattern}`);
const webSocketPaths = new Set(['GET /v2/updates', 'GET /v2/state/active-contracts', 'GET /v2/commands/completions', 'GET /v2/commands/command-completions']);

it('has a valid request for every route of src/sandbox/routes, and each is served', async () => {
  const valid = validRequests();
  expect(Object.keys(valid).sort()).toEqual([...routeKeys].sort());
  for (const key of routeKeys) {
    const { path, body, bytes } = valid[key] as { path: string; body?: unknown; bytes?: Buffer };
    const method = key.split(' ')[0] as string;
    const a = bytes ? await send(method, path, bytes, { 'content-type': 'application/octet-stream' }) : await send(method, path, body === undefined ? undefined : JSON.stringify(body));
    // the valid requests exercise the routes, not their rejections (the GET user route is the only one
    // whose caller has no user: INVALID_ARGUMENT without auth; DELETE targets a user that does not exist)
    if (key === 'GET /v2/authenticated-user') expect(a.status).toBe(400);
    else if (key === 'DELETE /v2/users/{user-id}' || webSocketPaths.has(key)) expect(a.status).toBe(404);
    else expect(a.status, `${key}: ${a.text.slice(0, 300)}`).toBe(200);
  }
});

/** Every path (keys and indexes) inside a JSON value. */
function paths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (typeof value !== 'object' || value === null) return [prefix];
  const keys: (string | number)[] = Array.isArray(value) ? value.map((_, i) => i) : Object.keys(value);
  return [prefix, ...keys.flatMap((k) => paths((value as Record<string | number, unknown>)[k], [...prefix, k]))];
}

function setAt(root: unknown, path: readonly (string | number)[], value: unknown, remove: boolean): unknown {
  if (path.length === 0) return value;
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let parent = copy;
  for (const k of path.slice(0, -1)) parent = parent[k] as Record<string | number, unknown>;
  const last = path[path.length - 1] as string | number;
  if (remove && !Array.isArray(parent)) delete parent[last];
  else parent[last] = value;
  return copy;
}

const hugeNumbers = ['1e400', '-1e400', '18446744073709551616', '-9223372036854775809', '9007199254740993', '1e-400', '123456789012345678901234567890'];
const numericStrings = ['"42"', '"-1"', '"1e3"', '" 5 "', '"0x10"', '"9999999999999999999999"', '"1.5"', '""'];

/** A body for a route: a spoiled valid body, as text. */
function bodyArb(valid: unknown): fc.Arbitrary<{ kind: string; text: string }> {
  const all = paths(valid);
  const at = fc.nat({ max: all.length - 1 }).map((i) => all[i] as (string | number)[]);
  const json = (kind: string) => (v: unknown) => ({ kind, text: JSON.stringify(v) });
  const validText = JSON.stringify(valid);
  return fc.oneof(
    // truncated JSON
    fc.nat({ max: Math.max(0, validText.length - 2) }).map((n) => ({ kind: 'truncated', text: validText.slice(0, n + 1) })),
    // wrong types / removed fields
    fc.tuple(at, fc.jsonValue({ maxDepth: 3 }), fc.boolean()).map(([p, v, remove]) => json('wrong-type')(setAt(valid, p, v, remove))),
    // huge numbers and numeric strings, spliced in as raw text (JSON.stringify cannot write 1e400)
    fc.tuple(at, fc.constantFrom(...hugeNumbers, ...numericStrings)).map(([p, raw]) => {
      const marker = '"__ledger_rx_fuzz__"';
      return { kind: 'number', text: JSON.stringify(setAt(valid, p, '__ledger_rx_fuzz__', false)).replace(marker, raw) };
    }),
    // unknown fields, at the top or inside an object
    fc.tuple(at, fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 2 })).map(([p, key, v]) => {
      const copy = structuredClone(valid) as Record<string, unknown>;
      let target: unknown = copy;
      for (const k of p) {
        const next = (target as Record<string | number, unknown>)[k];
        if (typeof next !== 'object' || next === null || Array.isArray(next)) break;
        target = next;
      }
      if (typeof target === 'object' && target !== null && !Array.isArray(target)) (target as Record<string, unknown>)[`x-${key}`] = v;
      return json('unknown-field')(copy);
    }),
    // any JSON at all, and non-JSON text
    fc.jsonValue({ maxDepth: 4 }).map(json('random-json')),
    fc.string({ maxLength: 40 }).map((text) => ({ kind: 'text', text })),
  );
}

/** A spoiled DAR: truncated, or with a few bytes flipped (sent as a binary body). */
function darBodyArb(valid: Buffer): fc.Arbitrary<{ kind: string; text: Buffer }> {
  return fc.oneof(
    fc.nat({ max: valid.length - 1 }).map((n) => ({ kind: 'truncated DAR', text: valid.subarray(0, n) })),
    fc.array(fc.tuple(fc.nat({ max: valid.length - 1 }), fc.integer({ min: 1, max: 255 })), { minLength: 1, maxLength: 4 }).map((flips) => {
      const copy = Buffer.from(valid);
      for (const [at, x] of flips) copy[at] = (copy[at] as number) ^ x;
      return { kind: 'flipped DAR', text: copy };
    }),
  );
}

describe('fuzzing each route with spoiled bodies and query strings', () => {
  const valid = () => validRequests();
  it.each(routeKeys)('%s answers only documented errors and changes nothing when it rejects', async (key) => {
    const method = key.split(' ')[0] as string;
    const { path, body, bytes } = valid()[key] as { path: string; body?: unknown; bytes?: Buffer };
    const base = path.split('?')[0] as string;
    const queryArb = fc.oneof(
      fc.constant(path.includes('?') ? path.slice(path.indexOf('?')) : ''),
      fc.tuple(fc.constantFrom('limit', 'stream_idle_timeout_ms', 'pageSize', 'pageToken', 'identity-provider-id', 'filter-party', 'x'), fc.constantFrom('-1', 'x', '1e400', '99999999999999999999', '', '%ZZ', '1.5', ' 3'))
        .map(([k, v]) => `?${k}=${v}`),
    );
    // a path user id that does not exist or is not a valid id (DELETE must not remove a real user)
    const userIdArb = fc.constantFrom('alice', 'nobody', '%00', '%FF', 'a'.repeat(300), '%2E%2E', 'b%2Fc', 'ünïcode', '%20');
    const bodyless = body === undefined && bytes === undefined;
    await fc.assert(
      fc.asyncProperty(bytes ? darBodyArb(bytes) : bodyless ? fc.constant(undefined) : bodyArb(body), queryArb, userIdArb, fc.boolean(), async (b, query, userId, withQuery) => {
        let target = base;
        if (base.includes('/v2/users/') && base !== '/v2/users') {
          target = base.replace(/\/v2\/users\/[^/]+/, `/v2/users/${method === 'DELETE' && userId === 'alice' ? 'nobody' : userId}`);
        }
        const q = withQuery ? query : path.includes('?') ? path.slice(path.indexOf('?')) : '';
        // GET routes get a garbage body now and then (the server ignores or refuses it)
        const text = b?.text ?? (withQuery ? undefined : '{"unexpected": [1, 2');
        await probe(method, `${target}${q}`, text, `${key} ${b?.kind ?? 'no body'} ${target}${q} ${text?.slice(0, 200) ?? ''}`);
      }),
      { numRuns: Math.max(10, Math.round(RUNS / 5)), seed: SEED, interruptAfterTimeLimit: 4_000, markInterruptAsFailure: false },
    );
  });
});

describe('hostile bodies on every route that takes one', () => {
  const deep = 100_000;
  const cases: [string, () => string | Buffer][] = [
    ['10^5 nested arrays', () => `${'['.repeat(deep)}${']'.repeat(deep)}`],
    ['10^5 nested objects', () => `${'{"a":'.repeat(deep)}1${'}'.repeat(deep)}`],
    ['a field nested 10^5 deep', () => `{"beginExclusive":${'['.repeat(deep)}${']'.repeat(deep)},"user":${'{"id":'.repeat(1000)}"x"${'}'.repeat(1000)}}`],
    ['a string of 1 MiB', () => JSON.stringify({ commandId: 'x'.repeat(1 << 20), partyIdHint: 'y'.repeat(1 << 20) })],
    ['invalid UTF-8', () => Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc3, 0x22, 0x7d])],
    ['a lone surrogate', () => '{"partyIdHint":"\\ud800","userId":"\\udfff"}'],
    ['an empty body', () => ''],
    ['only whitespace', () => ' \n\t '],
    ['a NUL byte', () => '{"a":"\u0000"}\u0000'],
    ['duplicate keys', () => '{"pageSize": 1, "pageSize": "x", "changes": [], "changes": 5}'],
  ];
  const withBody = allRoutes.filter((r) => r.method === 'POST' || r.method === 'PATCH' || r.pattern === '/v2/package-vetting' || r.pattern === '/v2/state/active-contracts-page');
  it.each(cases)('%s', async (name, make) => {
    const valid = validRequests();
    const body = make();
    for (const r of withBody) {
      const { path } = valid[`${r.method} ${r.pattern}`] as { path: string };
      await probe(r.method, path, body, `${r.method} ${r.pattern}: ${name}`);
    }
  });

  it('valid envelopes around payloads nested 10^5 deep (Daml values, filters, metadata)', async () => {
    const valid = validRequests();
    const nested = JSON.parse(`${'{"a":'.repeat(deep)}1${'}'.repeat(deep)}`) as unknown;
    const submit = valid['POST /v2/commands/async/submit'] as { path: string; body: { commands: { CreateCommand: { createArguments: Record<string, unknown> } }[] } };
    const command = structuredClone(submit.body);
    (command.commands[0] as { CreateCommand: { createArguments: Record<string, unknown> } }).CreateCommand.createArguments['memo'] = nested;
    const cases: [string, string, unknown][] = [
      ['POST', submit.path, { ...command, commandId: 'deep-arg' }],
      ['POST', '/v2/updates', { beginExclusive: 0, endInclusive: end, updateFormat: { includeTransactions: { eventFormat: { filtersByParty: { [alice]: nested } }, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' } } }],
      ['POST', '/v2/users', { user: { id: 'deep', metadata: { annotations: nested } }, rights: [] }],
      ['POST', '/v2/parties', { partyIdHint: 'Deep', synchronizerId: synchronizer, localMetadata: { annotations: nested } }],
      ['POST', '/v2/package-vetting/list', { packageMetadataFilter: nested, topologyStateFilter: { synchronizerIds: [nested] } }],
    ];
    for (const [method, path, body] of cases) {
      const text = `${JSON.stringify(body, (_key, v: unknown) => (v === nested ? '__deep__' : v))}`.replace('"__deep__"', `${'{"a":'.repeat(deep)}1${'}'.repeat(deep)}`);
      await probe(method, path, text, `${method} ${path}: a payload nested 10^5 deep`);
    }
  });

  it('a body over 8 MiB is refused with 413, declared or chunked, and the sandbox stays up', async () => {
    const valid = validRequests();
    const big = Buffer.alloc(8 * 1024 * 1024 + 10, 0x20);
    big.write('{"a":"', 0);
    for (const r of withBody) {
      const { path } = valid[`${r.method} ${r.pattern}`] as { path: string };
      const declared = await probe(r.method, path, big, `${r.method} ${r.pattern}: 8 MiB + 10 bytes`);
      expect(declared.status).toBe(413);
    }
    // chunked: no content-length, the limit applies while reading
    async function* chunks() {
      for (let i = 0; i < 9; i++) yield Buffer.alloc(1024 * 1024, 0x20);
    }
    const before = snapshot();
    const res = await request(`${sandbox.url}/v2/updates`, { method: 'POST', body: Readable.from(chunks()), headers: { 'content-type': 'application/json' }, headersTimeout: 10_000 }).catch(
      (e: unknown) => (e instanceof Error ? e : new Error(String(e))),
    );
    tried++;
    if (!(res instanceof Error)) {
      expect(res.statusCode).toBe(413);
      await res.body.dump();
    }
    expect(snapshot()).toBe(before);
    expect((await send('GET', '/v2/version')).status).toBe(200);
  });
});

describe('wrong methods, unknown paths and bad headers', () => {
  it('every known path answers 405 with Allow for every other method; unknown paths get the legacy 404', async () => {
    const byPattern = new Map<string, Set<string>>();
    for (const r of allRoutes) byPattern.set(r.pattern, (byPattern.get(r.pattern) ?? new Set()).add(r.method));
    for (const [pattern, allowed] of byPattern) {
      const path = pattern.replace('{user-id}', 'alice');
      for (const method of ['GET', 'POST', 'PATCH', 'PUT', 'DELETE', 'OPTIONS', 'HEAD']) {
        if (allowed.has(method)) continue;
        const a = await probe(method, path, method === 'GET' || method === 'HEAD' ? undefined : '{}', `${method} ${path}`);
        expect(a.status, `${method} ${path}`).toBe(405);
        expect(String(a.headers['allow']).split(', ').sort()).toEqual([...allowed].sort());
      }
    }
    for (const path of ['/v2', '/v2/', '/v2/nope', '/v1/updates', '/v2/users/alice/rights/extra', '/v2/updates/x', '/%ZZ', '/v2/../etc/passwd', `/v2/${'x'.repeat(5000)}`]) {
      const a = await probe('POST', path, '{}', `POST ${path}`);
      expect(a.status, path).toBe(404);
    }
  });

  it('bad content types, garbage Authorization and malformed traceparent never break a route', async () => {
    const valid = validRequests();
    const headerSets: Record<string, string>[] = [
      { 'content-type': 'text/plain' },
      { 'content-type': 'application/xml' },
      { 'content-type': '' },
      { 'content-type': 'application/json; charset=utf-16' },
      { authorization: 'Bearer' },
      { authorization: 'Bearer not.a.jwt' },
      { authorization: 'Basic YWxpY2U6c2VjcmV0' },
      { authorization: `Bearer ${'x'.repeat(20_000)}` },
      { authorization: 'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJhZG1pbiJ9.' },
      { 'sec-websocket-protocol': 'jwt.token.garbage, daml.ws.auth' },
      { traceparent: 'garbage' },
      { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331' },
      { traceparent: `00-${'z'.repeat(32)}-b7ad6b7169203331-01` },
      { traceparent: 'ff-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' },
    ];
    for (const key of routeKeys) {
      const { path, body } = valid[key] as { path: string; body?: unknown };
      const method = key.split(' ')[0] as string;
      for (const headers of headerSets) {
        // a body with unknown fields: rejected where unknown fields matter, so the trace id is visible
        const text = body === undefined ? undefined : JSON.stringify({ ...(body as object), beginExclusive: 'x', user: 5, changes: 5, commands: 5, partyIdHint: 5, pageSize: 'x', userId: 5 });
        const a = await probe(method, path, text, `${key} with ${JSON.stringify(headers).slice(0, 80)}`, headers);
        if (a.contentType.includes('application/json') && a.status >= 400 && a.status !== 404 && a.status !== 405) {
          const traceId = (JSON.parse(a.text) as { traceId?: unknown }).traceId;
          expect(traceId, `${key}: a malformed traceparent gives a fresh trace id`).toMatch(/^[0-9a-f]{32}$/);
          expect(traceId).not.toBe('z'.repeat(32));
        }
      }
    }
    // a well-formed traceparent is echoed as the trace id
    const a = await send('POST', '/v2/updates', '{"beginExclusive":-1}', { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' });
    expect(a.status).toBe(400);
    expect((JSON.parse(a.text) as { traceId: string }).traceId).toBe('0af7651916cd43dd8448eb211c80319c');
  });

  it('malformed HTTP (bad request line, bad header bytes) is refused at the socket and the sandbox keeps serving', async () => {
    const url = new URL(sandbox.url);
    const raw = (data: string) =>
      new Promise<string>((resolve) => {
        const socket = connect(Number(url.port), url.hostname);
        let out = '';
        socket.setTimeout(3_000, () => socket.destroy());
        socket.on('data', (d) => (out += d.toString('latin1')));
        socket.on('close', () => resolve(out));
        socket.on('error', () => resolve(out));
        socket.end(data);
      });
    for (const data of [
      'GARBAGE\r\n\r\n',
      'POST /v2/updates HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n{}',
      'POST /v2/updates HTTP/1.1\r\nHost: x\r\nBad Header: \u0001\r\n\r\n',
      'POST /v2/updates HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      `GET /${'a'.repeat(100_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
    ]) {
      const before = snapshot();
      const answer = await raw(data);
      tried++;
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0);
      expect(status === 0 || (status >= 400 && status < 500) || status === 404, `${JSON.stringify(data.slice(0, 60))} → ${answer.slice(0, 100)}`).toBe(true);
      expect(snapshot()).toBe(before);
    }
    expect((await send('GET', '/v2/version')).status).toBe(200);
  });

  it('instants the server cannot parse are decode failures (no February 30, no hour 24 past midnight)', async () => {
    const valid = validRequests();
    const submit = valid['POST /v2/commands/async/submit'] as { path: string; body: Record<string, unknown> };
    for (const instant of ['2026-02-30T00:00:00Z', '2026-01-01T24:00:01Z', '2026-04-31T10:00:00Z', '2026-13-01T00:00:00Z', 'yesterday']) {
      const a = await probe('POST', submit.path, JSON.stringify({ ...submit.body, commandId: `instant-${instant}`, minLedgerTimeAbs: instant }), `minLedgerTimeAbs ${instant}`);
      expect(a.status, instant).toBe(400);
      expect(a.contentType, instant).toMatch(/^text\/plain/);
    }
  });
});
