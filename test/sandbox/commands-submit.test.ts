import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { packageIdOf } from '../../src/sandbox/state/package-store.js';
import type { JsonValue } from '../../src/schemas/primitives.js';
import { call } from '../support/sandbox-http.js';
import { ACS, checkAgainstLog, createIou, LE, postUpdates, updateFormat } from './ledger-support.js';

let sandbox: Sandbox;
let alice: string;
let bob: string;
let charlie: string;
let dave: string;
let aliceIou: string;
let charlieIou: string;

beforeAll(async () => {
  sandbox = await startSandbox();
  [alice, bob, charlie, dave] = ['Alice', 'Bob', 'Charlie', 'Dave'].map((h) => sandbox.partyId(h)) as [string, string, string, string];
  aliceIou = (await sandbox.submit({ commands: [createIou(alice, bob)], commandId: 'setup-1', actAs: [alice] })).contractIds[0] as string;
  charlieIou = (await sandbox.submit({ commands: [createIou(charlie, charlie)], commandId: 'setup-2', actAs: [charlie] })).contractIds[0] as string;
});
afterAll(() => sandbox.close());

let counter = 0;
const fresh = () => `cmd-${++counter}`;

/** A valid submission as Alice, to be spoiled by each row. */
function valid(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { commands: [createIou(alice, bob)], commandId: fresh(), actAs: [alice], userId: 'alice-user', ...overrides };
}

function submit(body: unknown, options: { raw?: string; headers?: Record<string, string> } = {}) {
  return call(sandbox.url, 'POST', '/v2/commands/async/submit', {
    ...(options.raw === undefined ? { body } : { rawBody: options.raw }),
    ...(options.headers ? { headers: options.headers } : {}),
  });
}

const exercise = (contractId: string, choice: string, choiceArgument: JsonValue = {}, templateId = '#ledger-rx-demo:Iou:Iou') => ({
  ExerciseCommand: { templateId, contractId, choice, choiceArgument },
});

function nested(depth: number): unknown {
  let v: unknown = 'leaf';
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}

type Shape = 'grpc' | 'json-layer';
interface Row {
  name: string;
  body: () => unknown;
  raw?: string;
  status: number;
  code?: string;
  text?: RegExp;
  cause?: RegExp;
  shape?: Shape;
}

const unknownPackage = 'f'.repeat(64);
const rows: Row[] = [
  // 1 — decoding.
  { name: 'malformed JSON', body: () => undefined, raw: '{"commands": [', status: 400, text: /^Invalid value for: body/ },
  { name: 'missing commands', body: () => ({ commandId: 'x', actAs: [alice] }), status: 400, text: /commands/ },
  { name: 'missing commandId', body: () => ({ commands: [], actAs: [alice] }), status: 400, text: /commandId/ },
  { name: 'missing actAs', body: () => ({ commands: [], commandId: 'x' }), status: 400, text: /actAs/ },
  { name: 'identifier without three parts', body: () => valid({ commands: [{ CreateCommand: { templateId: 'Iou:Iou', createArguments: {} } }] }), status: 400, text: /templateId/ },
  { name: 'unknown command variant', body: () => valid({ commands: [{ ArchiveCommand: {} }] }), status: 400, text: /ArchiveCommand/ },
  { name: 'missing createArguments', body: () => valid({ commands: [{ CreateCommand: { templateId: '#ledger-rx-demo:Iou:Iou' } }] }), status: 400, text: /createArguments/ },
  // 2 — JSON layer: package resolution and transcoding, before authorization.
  { name: 'empty actAs', body: () => valid({ actAs: [] }), status: 400, code: 'MISSING_FIELD', shape: 'grpc' },
  { name: 'invalid first actAs party', body: () => valid({ actAs: ['not a party!'] }), status: 400, code: 'INVALID_ARGUMENT', cause: /Invalid party in actAs\/act_as/ },
  { name: 'invalid package preference', body: () => valid({ packageIdSelectionPreference: ['xyz'] }), status: 400, code: 'INVALID_ARGUMENT', cause: /packageIdSelectionPreferences/ },
  { name: 'package reference of neither form', body: () => valid({ commands: [{ CreateCommand: { templateId: 'Not$Valid:Iou:Iou', createArguments: {} } }] }), status: 400, code: 'INVALID_ARGUMENT', cause: /package-id or package-name formats/ },
  { name: 'unknown package name', body: () => valid({ commands: [{ CreateCommand: { templateId: '#no-such-package:Iou:Iou', createArguments: {} } }] }), status: 400, code: 'JSON_API_PACKAGE_SELECTION_FAILED' },
  { name: 'package name not vetted', body: () => valid({ commands: [{ CreateCommand: { templateId: '#ledger-rx-extras:Note:Note', createArguments: {} } }] }), status: 400, code: 'JSON_API_PACKAGE_SELECTION_FAILED' },
  { name: 'unknown template', body: () => valid({ commands: [{ CreateCommand: { templateId: '#ledger-rx-demo:Iou:Nope', createArguments: {} } }] }), status: 404, code: 'TEMPLATES_OR_INTERFACES_NOT_FOUND', cause: /Templates do not exist/ },
  { name: 'unknown package id', body: () => valid({ commands: [{ CreateCommand: { templateId: `${unknownPackage}:Iou:Iou`, createArguments: {} } }] }), status: 404, code: 'TEMPLATES_OR_INTERFACES_NOT_FOUND' },
  { name: 'unknown choice', body: () => valid({ commands: [exercise(aliceIou, 'Explode')] }), status: 400, code: 'INVALID_ARGUMENT', cause: /Invalid template:#ledger-rx-demo:Iou:Iou or choice:Explode/, shape: 'json-layer' },
  { name: 'nesting deeper than 100', body: () => valid({ commands: [createIou(alice, bob, { deep: nested(100) })] }), status: 400, code: 'INVALID_ARGUMENT', cause: /JSON nesting exceeds the maximum allowed depth of 100/, shape: 'json-layer' },
  { name: 'create argument that is not a record', body: () => valid({ commands: [{ CreateCommand: { templateId: '#ledger-rx-demo:Iou:Iou', createArguments: [1, 2] } }] }), status: 400, code: 'INVALID_ARGUMENT', shape: 'json-layer' },
  { name: 'missing key fields', body: () => valid({ commands: [{ CreateCommand: { templateId: '#ledger-rx-demo:Asset:Asset', createArguments: { issuer: alice } } }] }), status: 400, code: 'COMMAND_PREPROCESSING_FAILED', cause: /Missing non-optional fields: symbol/, shape: 'json-layer' },
  { name: 'JSON layer before the gRPC validator', body: () => valid({ commandId: '', commands: [{ CreateCommand: { templateId: '#ledger-rx-demo:Iou:Nope', createArguments: {} } }] }), status: 404, code: 'TEMPLATES_OR_INTERFACES_NOT_FOUND' },
  // 3 — MatchUserId with auth off and no user id in the request.
  { name: 'no user id without a token', body: () => valid({ userId: undefined }), status: 400, code: 'INVALID_TOKEN', cause: /Is authentication turned on\?/ },
  // 4 — the gRPC validator, in order; correlationId = the submission id.
  { name: 'invalid workflow id (before the command id)', body: () => valid({ workflowId: 'wf!', commandId: '' }), status: 400, code: 'INVALID_ARGUMENT' },
  { name: 'invalid user id', body: () => valid({ userId: 'bad user!' }), status: 400, code: 'INVALID_FIELD', cause: /user_id/ },
  { name: 'empty command id', body: () => valid({ commandId: '' }), status: 400, code: 'MISSING_FIELD', cause: /command_id/ },
  { name: 'invalid command id', body: () => valid({ commandId: 'bad!' }), status: 400, code: 'INVALID_FIELD', cause: /command_id/ },
  { name: 'invalid submission id', body: () => valid({ submissionId: 'bad!' }), status: 400, code: 'INVALID_FIELD', cause: /submission_id/ },
  { name: 'invalid readAs party', body: () => valid({ readAs: ['no way!'] }), status: 400, code: 'INVALID_ARGUMENT' },
  { name: 'malformed synchronizer id', body: () => valid({ synchronizerId: 'sync' }), status: 400, code: 'INVALID_FIELD', cause: /synchronizer_id/ },
  { name: 'no commands', body: () => valid({ commands: [] }), status: 400, code: 'MISSING_FIELD', cause: /commands/ },
  { name: 'empty contract id', body: () => valid({ commands: [exercise('', 'Archive')] }), status: 400, code: 'MISSING_FIELD', cause: /contract_id/ },
  { name: 'both min ledger times', body: () => valid({ minLedgerTimeAbs: '2026-01-01T00:00:00Z', minLedgerTimeRel: { seconds: 1, nanos: 0 } }), status: 400, code: 'INVALID_ARGUMENT', cause: /min_ledger_time_abs/ },
  { name: 'both min ledger times (an offset instant decodes)', body: () => valid({ minLedgerTimeAbs: '2026-01-01t01:00:00.5+01:00', minLedgerTimeRel: { seconds: 1, nanos: 0 } }), status: 400, code: 'INVALID_ARGUMENT', cause: /min_ledger_time_abs/ },
  { name: 'negative deduplication duration', body: () => valid({ deduplicationPeriod: { DeduplicationDuration: { value: { seconds: -1, nanos: 0 } } } }), status: 400, code: 'INVALID_FIELD', cause: /Duration must be positive/ },
  { name: 'negative deduplication offset', body: () => valid({ deduplicationPeriod: { DeduplicationOffset: { value: -3 } } }), status: 400, code: 'NEGATIVE_OFFSET' },
  { name: 'prefetch limit 0', body: () => valid({ prefetchContractKeys: [{ templateId: '#ledger-rx-demo:Asset:Asset', contractKey: {}, limit: 0 }] }), status: 400, code: 'INVALID_ARGUMENT' },
  { name: 'tapsMaxPasses 0', body: () => valid({ tapsMaxPasses: 0 }), status: 400, code: 'INVALID_ARGUMENT' },
  // 5 — submission.
  { name: 'unknown synchronizer', body: () => valid({ synchronizerId: `nowhere::1220${'0'.repeat(64)}` }), status: 400, code: 'NO_SYNCHRONIZER_FOR_SUBMISSION' },
  { name: 'submitter hosted elsewhere', body: () => valid({ actAs: [dave], commands: [createIou(dave, bob)] }), status: 400, code: 'NO_SYNCHRONIZER_FOR_SUBMISSION' },
  { name: 'package not vetted (by id)', body: () => valid({ commands: [{ CreateCommand: { templateId: `${packageIdOf('ledger-rx-extras', '0.1.0')}:Note:Note`, createArguments: { readers: [] } } }] }), status: 400, code: 'NO_SYNCHRONIZER_FOR_SUBMISSION', cause: /not vetted/ },
  { name: 'deduplication duration beyond the maximum', body: () => valid({ deduplicationPeriod: { DeduplicationDuration: { value: { seconds: 8 * 86400, nanos: 0 } } } }), status: 400, code: 'INVALID_DEDUPLICATION_PERIOD' },
  { name: 'deduplication offset after the ledger end', body: () => valid({ deduplicationPeriod: { DeduplicationOffset: { value: 10_000_000 } } }), status: 400, code: 'INVALID_DEDUPLICATION_PERIOD' },
  { name: 'unknown contract', body: () => valid({ commands: [exercise(`00${'1'.repeat(64)}`, 'Archive')] }), status: 404, code: 'CONTRACT_NOT_FOUND' },
  { name: 'contract not visible to actAs/readAs', body: () => valid({ actAs: [bob], commands: [exercise(charlieIou, 'Iou_Observe')] }), status: 404, code: 'CONTRACT_NOT_FOUND' },
  { name: 'contract of another template', body: () => valid({ commands: [exercise(aliceIou, 'Give', {}, '#ledger-rx-demo:Asset:Asset')] }), status: 400, code: 'DAML_INTERPRETATION_ERROR' },
  { name: 'unknown contract key', body: () => valid({ commands: [{ ExerciseByKeyCommand: { templateId: '#ledger-rx-demo:Asset:Asset', contractKey: { issuer: alice, symbol: 'NOPE' }, choice: 'Give', choiceArgument: {} } }] }), status: 404, code: 'CONTRACT_KEY_NOT_FOUND' },
  { name: 'the same contract consumed twice', body: () => valid({ commands: [exercise(aliceIou, 'Archive'), exercise(aliceIou, 'Archive')] }), status: 404, code: 'CONTRACT_NOT_FOUND' },
];

describe('POST /v2/commands/async/submit validation (docs/server-behavior.md#submit-validation-order, in order)', () => {
  it.each(rows)('$name', async (row) => {
    const before = sandbox.ledgerEnd();
    const r = await submit(row.body(), row.raw === undefined ? {} : { raw: row.raw });
    expect(r.status, r.text).toBe(row.status);
    expect(sandbox.ledgerEnd()).toBe(before);
    if (row.text) {
      expect(r.contentType).toMatch(/^text\/plain/);
      expect(r.text).toMatch(row.text);
      return;
    }
    const body = r.json as { code: string; cause: string; definiteAnswer: unknown; context: Record<string, string> };
    expect(body.code).toBe(row.code);
    if (row.cause) expect(body.cause).toMatch(row.cause);
    if (row.shape === 'json-layer') {
      expect(body.definiteAnswer).toBe(false);
      expect(body.context).toEqual({});
    } else {
      expect(body.definiteAnswer).toBeNull();
    }
  });

  it('errors from the gRPC validator on carry the submission id as correlation id', async () => {
    const given = await submit(valid({ commandId: '', submissionId: 'sub-42' }));
    expect(given.json).toMatchObject({ code: 'MISSING_FIELD', correlationId: 'sub-42', context: { field_name: 'command_id' } });
    const generated = await submit(valid({ commands: [exercise(`00${'1'.repeat(64)}`, 'Archive')] }));
    const body = generated.json as { correlationId: string; traceId: string; resources: string[][] };
    expect(body.correlationId).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.correlationId).not.toBe(body.traceId);
    expect(body.resources).toEqual([['CONTRACT_ID', `00${'1'.repeat(64)}`]]);
    const early = await submit(valid({ actAs: [] }));
    expect((early.json as { correlationId: unknown }).correlationId).toBeNull();
  });

  it.each(['2026-01-01T01:00:00+01:00', '2025-12-31T19:00:00-05:00', '2026-01-01t00:00:00.123456789z', '2016-12-31T23:59:60Z'])(
    'accepts minLedgerTimeAbs %s (Instant.parse: offsets, any case, a leap second)',
    async (instant) => {
      const r = await submit(valid({ minLedgerTimeAbs: instant }));
      expect(r.status, r.text).toBe(200);
    },
  );

  it.each(['2026-01-01T01:00:00+19:00', '2026-01-01T10:15:60Z', '2026-01-01T01:00:00+01'])('refuses minLedgerTimeAbs %s (Instant.parse does)', async (instant) => {
    const r = await submit(valid({ minLedgerTimeAbs: instant }));
    expect(r.status).toBe(400);
    expect(r.text).toBe(`Invalid value for: body (Text '${instant}' could not be parsed as an instant at 'minLedgerTimeAbs')`);
  });

  it('accepts a Daml value nested exactly 100 deep', async () => {
    const r = await submit(valid({ commands: [createIou(alice, bob, { deep: nested(99) })] }));
    expect(r.status, r.text).toBe(200);
  });
});

describe('accepted submissions', () => {
  it('answers {} after appending the transaction, with the trace context of the request', async () => {
    const before = sandbox.ledgerEnd();
    const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    const r = await submit(valid({ commandId: 'traced', workflowId: 'wf-1' }), { headers: { traceparent, tracestate: 'vendor=1' } });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({});
    const last = sandbox.updates({ beginExclusive: before });
    expect(last).toHaveLength(1);
    expect(last[0]).toMatchObject({ kind: 'Transaction', commandId: 'traced', workflowId: 'wf-1', actAs: [alice] });
    const read = await postUpdates(sandbox, { beginExclusive: before, endInclusive: sandbox.ledgerEnd(), updateFormat: updateFormat([alice]) });
    const [element] = checkAgainstLog(sandbox, read.json, { transactions: { shape: ACS, parties: [alice] } }, { beginExclusive: before, endInclusive: sandbox.ledgerEnd() });
    expect(element?.value).toMatchObject({ commandId: 'traced', workflowId: 'wf-1', traceContext: { traceparent, tracestate: 'vendor=1' }, offset: last[0]?.offset });
  });

  it('signatories are the actAs parties; observers are the known parties among the argument values', async () => {
    const r = await sandbox.submit({ commands: [createIou(alice, bob, { observers: [charlie, 'Stranger::1220ab', alice] })], commandId: fresh(), actAs: [alice] });
    const [u] = sandbox.updates({ beginExclusive: r.offset - 1 });
    expect(u?.kind === 'Transaction' && u.events[0]).toMatchObject({ kind: 'Created', signatories: [alice], observers: [bob, charlie] });
  });

  it('observers come from any field, recursively (records, lists, optionals, map values), deduplicated, in order of first appearance', async () => {
    const eve = sandbox.partyId('Eve');
    const meta = {
      auditor: dave,
      note: null,
      tags: ['x', eve, bob, 'Stranger::1220ab'],
      optional: [[charlie]],
      byParty: { [alice]: 'a signatory as a map key or value is never an observer', k: alice },
      payload: { tag: 'Some', value: { inner: dave } },
    };
    const r = await submit(valid({ actAs: [alice], commands: [{ CreateCommand: { templateId: '#ledger-rx-demo:Iou:Iou', createArguments: { issuer: alice, owner: alice, currency: bob, amount: '1.0', meta } } }] }));
    expect(r.status, r.text).toBe(200);
    const [u] = sandbox.updates({ beginExclusive: sandbox.ledgerEnd() - 1 });
    expect(u?.kind === 'Transaction' && u.events[0]).toMatchObject({ kind: 'Created', signatories: [alice], observers: [bob, dave, eve, charlie] });
    // A map key is not a value: Dave as a key only makes no observer.
    const keyed = await sandbox.submit({ commands: [createIou(alice, alice, { byParty: { [dave]: '1' } })], commandId: fresh(), actAs: [alice] });
    const [k] = sandbox.updates({ beginExclusive: keyed.offset - 1 });
    expect(k?.kind === 'Transaction' && k.events[0]).toMatchObject({ kind: 'Created', observers: [] });
  });

  it('observers of another template follow the same rule (no per-template observer fields)', async () => {
    const asset = { CreateCommand: { templateId: '#ledger-rx-demo:Asset:Asset', createArguments: { issuer: alice, owner: alice, symbol: 'OBS-1', quantity: '1', custodian: charlie } } };
    const r = await submit(valid({ commands: [asset] }));
    expect(r.status, r.text).toBe(200);
    const [u] = sandbox.updates({ beginExclusive: sandbox.ledgerEnd() - 1 });
    expect(u?.kind === 'Transaction' && u.events[0]).toMatchObject({ kind: 'Created', signatories: [alice], observers: [charlie] });
    const read = await postUpdates(sandbox, { beginExclusive: sandbox.ledgerEnd() - 1, endInclusive: sandbox.ledgerEnd(), updateFormat: updateFormat([charlie]) });
    checkAgainstLog(sandbox, read.json, { transactions: { shape: ACS, parties: [charlie] } }, { beginExclusive: sandbox.ledgerEnd() - 1, endInclusive: sandbox.ledgerEnd() });
    expect((read.json as unknown[]).length).toBe(1);
  });

  it('a consuming exercise archives its target; a non-consuming one does not', async () => {
    const { contractIds } = await sandbox.submit({ commands: [createIou(alice, bob)], commandId: fresh(), actAs: [alice] });
    const iou = contractIds[0] as string;
    expect((await submit(valid({ commands: [exercise(iou, 'Iou_Observe')] }))).status).toBe(200);
    expect((await submit(valid({ actAs: [bob], commands: [exercise(iou, 'Iou_Observe')] }))).status).toBe(200);
    expect((await submit(valid({ commands: [exercise(iou, 'Archive')] }))).status).toBe(200);
    const again = await submit(valid({ commands: [exercise(iou, 'Iou_Observe')] }));
    expect(again.status).toBe(404);
    expect(again.json).toMatchObject({ code: 'CONTRACT_NOT_FOUND' });
  });

  it('readAs makes a contract visible for an exercise', async () => {
    const r = await submit(valid({ actAs: [bob], readAs: [charlie], commands: [exercise(charlieIou, 'Iou_Observe')] }));
    expect(r.status, r.text).toBe(200);
  });

  it('exercises by key, through the package-id form, and interface choices', async () => {
    const demo10 = packageIdOf('ledger-rx-demo', '1.0.0');
    const asset = { CreateCommand: { templateId: `${demo10}:Asset:Asset`, createArguments: { issuer: alice, owner: bob, symbol: 'KEY-1', quantity: '1' } } };
    expect((await submit(valid({ commands: [asset] }))).status).toBe(200);
    const byKey = { ExerciseByKeyCommand: { templateId: '#ledger-rx-demo:Asset:Asset', contractKey: { issuer: alice, symbol: 'KEY-1' }, choice: 'Give', choiceArgument: {} } };
    const lock = { ExerciseCommand: { templateId: '#ledger-rx-demo:Iou:Iou', contractId: charlieIou, choice: 'Holding_Lock', choiceArgument: {} } };
    const before = sandbox.ledgerEnd();
    expect((await submit(valid({ commands: [byKey] }))).status).toBe(200);
    expect((await submit(valid({ actAs: [charlie], commands: [lock] }))).status).toBe(200);
    const gone = await submit(valid({ commands: [byKey] }));
    expect(gone.json).toMatchObject({ code: 'CONTRACT_KEY_NOT_FOUND' });
    const end = sandbox.ledgerEnd();
    const read = await postUpdates(sandbox, { beginExclusive: before, endInclusive: end, updateFormat: updateFormat('any', LE) });
    const elements = checkAgainstLog(sandbox, read.json, { transactions: { shape: LE, parties: 'any' } }, { beginExclusive: before, endInclusive: end });
    const events = elements.map((e) => (e.value['events'] as Record<string, Record<string, unknown>>[])[0]?.['ExercisedEvent']);
    expect(events[0]).toMatchObject({ choice: 'Give', consuming: true, templateId: `${demo10}:Asset:Asset`, interfaceId: null });
    expect(events[1]).toMatchObject({ choice: 'Holding_Lock', consuming: false, interfaceId: `${packageIdOf('ledger-rx-demo', '1.1.0')}:Holding:Holding` });
  });

  it('deduplicates the change id (userId, actAs set, commandId) within the period: accepted ({}), then a DUPLICATE_COMMAND completion', async () => {
    const body = valid({ commandId: 'dedup-1', actAs: [alice, alice] });
    const from = sandbox.ledgerEnd();
    expect((await submit(body)).status).toBe(200);
    const acceptedAt = sandbox.ledgerEnd();
    const dup = await submit({ ...body, actAs: [alice], submissionId: 'second' });
    expect(dup.status).toBe(200); // the participant answers the submission, and reports the duplicate later
    expect((await submit({ ...body, userId: 'bob-user' })).status).toBe(200);
    expect((await submit({ ...body, actAs: [alice, bob] })).status).toBe(200);
    expect((await submit({ ...body, commandId: 'dedup-2' })).status).toBe(200);
    // A deduplication offset at or after the accepted one ends the period before it.
    expect((await submit({ ...body, submissionId: 'third', deduplicationPeriod: { DeduplicationOffset: { value: acceptedAt - 1 } } })).status).toBe(200);
    expect((await submit({ ...body, submissionId: 'fourth', deduplicationPeriod: { DeduplicationOffset: { value: acceptedAt } } })).status).toBe(200);
    const list = await call(sandbox.url, 'POST', '/v2/commands/completions?stream_idle_timeout_ms=0', { body: { userId: 'alice-user', parties: [alice], beginExclusive: from } });
    type Completion = { commandId: string; submissionId: string; status: { code: number; message: string }; updateId: string; offset: number };
    const completions = (list.json as { completionResponse: { Completion?: { value: Completion } } }[]).flatMap((e) => (e.completionResponse.Completion ? [e.completionResponse.Completion.value] : []));
    const byCommand = completions.filter((c) => c.commandId === 'dedup-1').map((c) => [c.submissionId, c.status.code, c.updateId === '' ? 'rejected' : 'accepted']);
    expect(byCommand).toEqual([
      [expect.any(String), 0, 'accepted'],
      ['second', 6, 'rejected'],
      [expect.any(String), 0, 'accepted'], // actAs {alice, bob}: another change id
      ['third', 6, 'rejected'],
      ['fourth', 0, 'accepted'],
    ]);
    expect(completions.find((c) => c.submissionId === 'second')?.status.message).toBe('DUPLICATE_COMMAND(10,second): Command submission already exists.');
  });

  it('the in-process submit has the same semantics and throws the same errors', async () => {
    await expect(sandbox.submit({ commands: [exercise(`00${'2'.repeat(64)}`, 'Archive')], commandId: fresh(), actAs: [alice] })).rejects.toThrow(/CONTRACT_NOT_FOUND/);
    await expect(sandbox.submit({ commands: [], commandId: fresh(), actAs: [alice] })).rejects.toThrow(/MISSING_FIELD/);
  });
});
