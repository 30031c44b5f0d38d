import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { call } from '../support/sandbox-http.js';
import { sharedAvailable, sharedDir } from '../support/shared-dir.js';
import { elementsOf, postUpdates, updateFormat } from './ledger-support.js';

/**
 * Commands on the templates of an uploaded DAR (richtypes), in raw HTTP: creates type-checked against the DAR
 * with the participant's errors (docs/sandbox.md#typed-creates), the stored contract rendered in the
 * participant's encoding, `Archive` on every template, and any other choice refused because the sandbox runs no
 * Daml code.
 */
const available = sharedAvailable('dars/richtypes.dar', 'the typed-command tests');

let sandbox: Sandbox;
let alice: string;
let marker: string;
let counter = 0;
const RichRecord = '#richtypes:RichTypes:RichRecord';

async function submit(commands: unknown[], actAs = alice) {
  return call(sandbox.url, 'POST', '/v2/commands/async/submit', { body: { commands, commandId: `typed-${++counter}`, actAs: [actAs], userId: 'participant_admin' } });
}

/** The events of the transaction at the ledger end, as `POST /v2/updates` answers them (raw text and parsed). */
async function lastTransaction(shape: 'TRANSACTION_SHAPE_ACS_DELTA' | 'TRANSACTION_SHAPE_LEDGER_EFFECTS' = 'TRANSACTION_SHAPE_ACS_DELTA') {
  const end = sandbox.ledgerEnd();
  const res = await postUpdates(sandbox, { beginExclusive: end - 1, endInclusive: end, updateFormat: updateFormat([alice], shape) });
  expect(res.status).toBe(200);
  const [tx] = elementsOf(res.json).filter((e) => e.kind === 'Transaction');
  return { text: res.text, events: (tx?.value['events'] ?? []) as Record<string, Record<string, unknown>>[] };
}

/** A well-typed RichRecord argument, in the forms a client may send (not the participant's canonical ones). */
function richRecord(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    owner: alice,
    count: '+042',
    amount: '1.5',
    label: 'hello',
    active: true,
    asOf: '2026-07-03',
    observedAt: '2026-07-03T11:15:30.500+01:00',
    note: null,
    tags: ['a', 'b'],
    attributes: { b: 'x', a: 'y', '10': 'z', '9': 'w' },
    marker,
    profile: { nickname: 'al', level: '3' },
    outcome: { tag: 'Win', value: { prize: 2.5, tier: 'gold' } },
    fee: '0.1',
    ...overrides,
  };
}

const create = (createArguments: unknown, templateId = RichRecord) => ({ CreateCommand: { templateId, createArguments } });
const exercise = (contractId: string, choice: string, choiceArgument: unknown, templateId = RichRecord) => ({ ExerciseCommand: { templateId, contractId, choice, choiceArgument } });

beforeAll(async () => {
  if (!available) return;
  sandbox = await startSandbox({ dars: [join(sharedDir ?? '', 'dars', 'richtypes.dar')] });
  alice = sandbox.partyId('Alice');
  expect((await submit([create({ owner: alice }, '#richtypes:RichTypes:Marker')])).status).toBe(200);
  const { events } = await lastTransaction();
  marker = events[0]?.['CreatedEvent']?.['contractId'] as string;
});
afterAll(() => sandbox?.close());

describe.runIf(available)('creates of an uploaded template', () => {
  it('are stored and rendered in the participant encoding: canonical Int64, Numeric at full scale, UTC timestamps, sorted TextMaps, inner None as null', async () => {
    const res = await submit([create(richRecord())]);
    expect(res.status, res.text).toBe(200);
    const { text, events } = await lastTransaction();
    const created = events[0]?.['CreatedEvent'] as Record<string, unknown>;
    const expected =
      `{"owner":"${alice}","count":"42","amount":"1.5000000000","label":"hello","active":true,"asOf":"2026-07-03",` +
      `"observedAt":"2026-07-03T10:15:30.5Z","note":null,"tags":["a","b"],"attributes":{"10":"z","9":"w","a":"y","b":"x"},` +
      `"marker":"${marker}","profile":{"nickname":"al","level":"3"},"outcome":{"tag":"Win","value":{"prize":"2.50","tier":"gold"}},"fee":"0.10"}`;
    expect(text).toContain(`"createArgument":${expected}`);
    expect(created['templateId']).toMatch(/^[0-9a-f]{64}:RichTypes:RichRecord$/);
    expect(created['packageName']).toBe('richtypes');
  });

  it('accept absent optional fields, extra fields that are null, and Numeric as a small JSON number', async () => {
    const { note: _note, ...withoutNote } = richRecord({ amount: 12.25, fee: 3 });
    expect((await submit([create({ ...withoutNote, colour: null })])).status).toBe(200);
    const { text } = await lastTransaction();
    expect(text).toContain('"amount":"12.2500000000"');
    expect(text).toContain('"note":null');
    expect(text).toContain('"fee":"3.00"');
    expect(text).not.toContain('colour');
  });

  interface Row {
    readonly name: string;
    readonly argument: () => unknown;
    readonly status: number;
    readonly code: string;
    readonly cause: string;
    /** gRPC-side errors carry the submission's correlation id and the participant in their context. */
    readonly shape: 'json-layer' | 'grpc';
  }
  const without = (field: string) => () => Object.fromEntries(Object.entries(richRecord()).filter(([k]) => k !== field));
  const rows: Row[] = [
    { name: 'a missing field', argument: without('label'), status: 400, code: 'COMMAND_PREPROCESSING_FAILED', cause: 'Missing non-optional fields: Set(label)', shape: 'json-layer' },
    {
      name: 'a misspelt field name (missing wins over unexpected)',
      argument: () => ({ ...without('label')(), labl: 'x' }),
      status: 400,
      code: 'COMMAND_PREPROCESSING_FAILED',
      cause: 'Missing non-optional fields: Set(label)',
      shape: 'json-layer',
    },
    { name: 'a field the template lacks', argument: () => richRecord({ colour: 'red' }), status: 400, code: 'INVALID_ARGUMENT', cause: 'The submitted request has invalid arguments: Unexpected fields: colour', shape: 'json-layer' },
    { name: 'a field of a nested record the type lacks', argument: () => richRecord({ profile: { nickname: 'al', level: '3', age: '9' } }), status: 400, code: 'INVALID_ARGUMENT', cause: 'The submitted request has invalid arguments: Unexpected fields: age', shape: 'json-layer' },
    { name: 'Int64 as a JSON number', argument: () => richRecord({ count: 42 }), status: 500, code: 'LEDGER_API_INTERNAL_ERROR', cause: 'Expected ujson.Str (data: 42)', shape: 'json-layer' },
    { name: 'Bool as a string', argument: () => richRecord({ active: 'yes' }), status: 500, code: 'LEDGER_API_INTERNAL_ERROR', cause: 'Expected ujson.Bool (data: "yes")', shape: 'json-layer' },
    { name: 'a list where a record belongs', argument: () => richRecord({ profile: ['al'] }), status: 500, code: 'LEDGER_API_INTERNAL_ERROR', cause: 'Expected ujson.Obj (data: ["al"])', shape: 'json-layer' },
    { name: 'null for a non-optional Text', argument: () => richRecord({ label: null }), status: 500, code: 'LEDGER_API_INTERNAL_ERROR', cause: 'Expected ujson.Str (data: null)', shape: 'json-layer' },
    { name: 'Int64 above its range', argument: () => richRecord({ count: '9223372036854775808' }), status: 400, code: 'INVALID_ARGUMENT', cause: 'The submitted request has invalid arguments: For input string: "9223372036854775808"', shape: 'json-layer' },
    { name: 'Int64 below its range', argument: () => richRecord({ profile: { nickname: 'al', level: '-9223372036854775809' } }), status: 400, code: 'INVALID_ARGUMENT', cause: 'The submitted request has invalid arguments: For input string: "-9223372036854775809"', shape: 'json-layer' },
    { name: 'Int64 with a fraction', argument: () => richRecord({ count: '1.5' }), status: 400, code: 'INVALID_ARGUMENT', cause: 'The submitted request has invalid arguments: For input string: "1.5"', shape: 'json-layer' },
    { name: 'Numeric with more decimals than its scale', argument: () => richRecord({ amount: '1.12345678901' }), status: 400, code: 'COMMAND_PREPROCESSING_FAILED', cause: 'Cannot represent 1.12345678901 as (Numeric 10) without loss of precision', shape: 'grpc' },
    { name: 'Numeric 2 with three decimals', argument: () => richRecord({ fee: '0.125' }), status: 400, code: 'COMMAND_PREPROCESSING_FAILED', cause: 'Cannot represent 0.125 as (Numeric 2) without loss of precision', shape: 'grpc' },
    { name: 'Numeric too large for its scale', argument: () => richRecord({ amount: '1'.repeat(29) }), status: 400, code: 'COMMAND_PREPROCESSING_FAILED', cause: `Out-of-bounds (Numeric 10) ${'1'.repeat(29)}.0000000000`, shape: 'grpc' },
    { name: 'Numeric in exponent form', argument: () => richRecord({ amount: '1e5' }), status: 400, code: 'INVALID_ARGUMENT', cause: 'The submitted request has invalid arguments: Could not read Numeric string "1e5"', shape: 'grpc' },
    { name: 'Numeric as a large JSON number (a double printed with an exponent)', argument: () => richRecord({ amount: 12345678.5 }), status: 400, code: 'INVALID_ARGUMENT', cause: 'The submitted request has invalid arguments: Could not read Numeric string "1.23456785E7"', shape: 'grpc' },
    { name: 'Numeric as a boolean', argument: () => richRecord({ amount: true }), status: 400, code: 'INVALID_ARGUMENT', cause: 'The submitted request has invalid arguments: true is not a valid numeric value', shape: 'json-layer' },
    { name: 'an unknown variant constructor', argument: () => richRecord({ outcome: { tag: 'Lose', value: {} } }), status: 400, code: 'INVALID_ARGUMENT', cause: 'The submitted request has invalid arguments: Unexpected variant tag: Lose', shape: 'json-layer' },
    { name: 'a variant without value', argument: () => richRecord({ outcome: { tag: 'Pending' } }), status: 400, code: 'INVALID_ARGUMENT', cause: "The submitted request has invalid arguments: Variant type json must have 'tag' and 'value' fields.", shape: 'json-layer' },
    { name: 'a malformed party', argument: () => richRecord({ owner: 'alice!' }), status: 400, code: 'INVALID_ARGUMENT', cause: 'The submitted request has invalid arguments: non expected character 0x21 in Daml-LF Party "alice!"', shape: 'grpc' },
    { name: 'a timestamp without offset', argument: () => richRecord({ observedAt: '2026-07-03T10:15:30' }), status: 500, code: 'LEDGER_API_INTERNAL_ERROR', cause: "Text '2026-07-03T10:15:30' could not be parsed", shape: 'json-layer' },
    { name: 'a date that does not exist', argument: () => richRecord({ asOf: '2026-02-30' }), status: 500, code: 'LEDGER_API_INTERNAL_ERROR', cause: "Text '2026-02-30' could not be parsed", shape: 'json-layer' },
  ];

  it.each(rows)('an ill-typed argument gets the participant error: $name', async (row) => {
    const end = sandbox.ledgerEnd();
    const res = await submit([create(row.argument())]);
    expect(res.status, res.text).toBe(row.status);
    const body = res.json as Record<string, unknown>;
    expect(body['code']).toBe(row.code);
    expect(body['cause']).toBe(row.cause);
    const context = body['context'] as Record<string, string>;
    if (row.shape === 'grpc') {
      expect(context['participant']).toBeDefined();
      expect(body['correlationId']).not.toBe(body['traceId']);
    } else {
      expect(context['participant']).toBeUndefined();
      expect(body['correlationId']).toBe(body['traceId']);
    }
    expect(sandbox.ledgerEnd()).toBe(end); // nothing stored
  });
});

describe.runIf(available)('choices of an uploaded template', () => {
  it('Archive archives the contract, with the choice argument and result as the participant renders them', async () => {
    await submit([create({ owner: alice }, '#richtypes:RichTypes:Marker')]);
    const id = (await lastTransaction()).events[0]?.['CreatedEvent']?.['contractId'] as string;
    const res = await submit([exercise(id, 'Archive', {}, '#richtypes:RichTypes:Marker')]);
    expect(res.status, res.text).toBe(200);
    const { events } = await lastTransaction('TRANSACTION_SHAPE_LEDGER_EFFECTS');
    const exercised = events[0]?.['ExercisedEvent'] as Record<string, unknown>;
    expect(exercised).toMatchObject({ contractId: id, choice: 'Archive', choiceArgument: {}, consuming: true, exerciseResult: {} });
    // archived: a second Archive finds no contract
    const again = await submit([exercise(id, 'Archive', {}, '#richtypes:RichTypes:Marker')]);
    expect(again.status).toBe(404);
    expect((again.json as { code: string }).code).toBe('CONTRACT_NOT_FOUND');
  });

  it('Archive takes the empty Archive record: a field it lacks is refused like any ill-typed argument', async () => {
    const res = await submit([exercise(marker, 'Archive', { reason: 'x' }, '#richtypes:RichTypes:Marker')]);
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ code: 'INVALID_ARGUMENT', cause: 'The submitted request has invalid arguments: Unexpected fields: reason' });
  });

  it('any other choice is refused: the sandbox does not run Daml code (after the argument is type-checked)', async () => {
    expect((await submit([create(richRecord())])).status).toBe(200);
    const id = (await lastTransaction()).events[0]?.['CreatedEvent']?.['contractId'] as string;
    const end = sandbox.ledgerEnd();
    const ill = await submit([exercise(id, 'Relabel', { newLabel: 7 })]);
    expect(ill.status).toBe(500);
    expect((ill.json as { cause: string }).cause).toBe('Expected ujson.Str (data: 7)');
    const res = await submit([exercise(id, 'Relabel', { newLabel: 'x' })]);
    expect(res.status, res.text).toBe(400);
    const body = res.json as Record<string, unknown>;
    expect(body['code']).toBe('DAML_INTERPRETATION_ERROR');
    expect(body['errorCategory']).toBe(9);
    expect(body['cause']).toMatch(/^Interpretation error: Error: the ledger-rx sandbox does not run Daml code: choice Relabel of template [0-9a-f]{64}:RichTypes:RichRecord cannot be exercised \(only Archive can/);
    const both = await submit([{ CreateAndExerciseCommand: { templateId: RichRecord, createArguments: richRecord(), choice: 'Relabel', choiceArgument: { newLabel: 'x' } } }]);
    expect((both.json as { code: string }).code).toBe('DAML_INTERPRETATION_ERROR');
    expect(sandbox.ledgerEnd()).toBe(end);
  });
});

describe.runIf(sharedAvailable('dars/splice-amulet-name-service.dar', 'the interface tests on uploaded templates'))('interfaces of an uploaded DAR', () => {
  // FeaturedAppRight {dso, provider} implements FeaturedAppRightV1:FeaturedAppRight (and V2), whose view is Daml code
  let splice: Sandbox;
  let party: string;
  const templateId = '#splice-amulet:Splice.Amulet:FeaturedAppRight';
  const interfaceId = '#splice-api-featured-app-v1:Splice.Api.FeaturedAppRightV1:FeaturedAppRight';
  beforeAll(async () => {
    splice = await startSandbox({ dars: [join(sharedDir ?? '', 'dars', 'splice-amulet-name-service.dar')] });
    party = splice.partyId('Alice');
  });
  afterAll(() => splice?.close());
  const submitTo = (commands: unknown[]) =>
    call(splice.url, 'POST', '/v2/commands/async/submit', { body: { commands, commandId: `iface-${++counter}`, actAs: [party], userId: 'participant_admin' } });

  it('a view asked for is reported as failed (the sandbox cannot compute it), never made up; interface choices other than Archive are refused', async () => {
    expect((await submitTo([create({ dso: party, provider: party }, templateId)])).status).toBe(200);
    const end = splice.ledgerEnd();
    const filter = { cumulative: [{ identifierFilter: { InterfaceFilter: { value: { interfaceId, includeInterfaceView: true, includeCreatedEventBlob: false } } } }] };
    const format = { includeTransactions: { eventFormat: { filtersByParty: { [party]: filter }, verbose: false }, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' } };
    const res = await postUpdates(splice, { beginExclusive: end - 1, endInclusive: end, updateFormat: format });
    expect(res.status, res.text).toBe(200);
    const created = elementsOf(res.json).find((e) => e.kind === 'Transaction')?.value['events'] as Record<string, Record<string, unknown>>[];
    const views = created[0]?.['CreatedEvent']?.['interfaceViews'] as Record<string, unknown>[];
    expect(views).toHaveLength(1);
    expect(views[0]?.['viewValue']).toBeNull();
    expect(views[0]?.['viewStatus']).toMatchObject({ code: 9, message: expect.stringContaining('does not run Daml code') as unknown });
    const id = created[0]?.['CreatedEvent']?.['contractId'] as string;

    // an interface choice: its argument is type-checked first (`beneficiaries` is a list), then refused
    const ill = await submitTo([exercise(id, 'FeaturedAppRight_CreateActivityMarker', {}, interfaceId)]);
    expect(ill.json).toMatchObject({ code: 'COMMAND_PREPROCESSING_FAILED', cause: 'Missing non-optional fields: Set(beneficiaries)' });
    const refused = await submitTo([exercise(id, 'FeaturedAppRight_CreateActivityMarker', { beneficiaries: [] }, interfaceId)]);
    expect(refused.status, refused.text).toBe(400);
    expect((refused.json as { code: string; cause: string }).code).toBe('DAML_INTERPRETATION_ERROR');
    expect((refused.json as { cause: string }).cause).toMatch(/does not run Daml code: choice FeaturedAppRight_CreateActivityMarker of interface [0-9a-f]{64}:Splice\.Api\.FeaturedAppRightV1:FeaturedAppRight /);
    const archived = await submitTo([exercise(id, 'Archive', {}, templateId)]);
    expect(archived.status, archived.text).toBe(200);
  });
});
