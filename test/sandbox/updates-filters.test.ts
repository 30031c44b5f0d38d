import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { packageIdOf } from '../../src/sandbox/state/package-store.js';
import {
  ACS,
  checkAgainstLog,
  createIou,
  filters,
  interfaceFilter,
  LE,
  postUpdates,
  templateFilter,
  updateFormat,
  wildcard,
  type Shape,
  type Visibility,
} from './ledger-support.js';

let sandbox: Sandbox;
let alice: string;
let bob: string;
let charlie: string;
let dave: string;
let frank: string;
const tx: Record<string, { offset: number; contractIds: readonly string[] }> = {};
const demo = packageIdOf('ledger-rx-demo', '1.1.0');

beforeAll(async () => {
  sandbox = await startSandbox();
  [alice, bob, charlie, dave] = ['Alice', 'Bob', 'Charlie', 'Dave'].map((h) => sandbox.partyId(h)) as [string, string, string, string];
  const submit = (name: string, commands: unknown[], actAs: string[]) =>
    sandbox.submit({ commands: commands as never, commandId: name, actAs }).then((r) => (tx[name] = r));
  await submit('create-ab', [createIou(alice, bob)], [alice]);
  await submit('create-cc', [createIou(charlie, charlie)], [charlie]);
  const iouAb = tx['create-ab']?.contractIds[0] as string;
  await submit('transfer', [{ ExerciseCommand: { templateId: '#ledger-rx-demo:Iou:Iou', contractId: iouAb, choice: 'Transfer', choiceArgument: { newOwner: charlie } } }], [alice]);
  await submit('transient', [{ CreateAndExerciseCommand: { templateId: '#ledger-rx-demo:Iou:Iou', createArguments: createIouArgs(alice, bob), choice: 'Archive', choiceArgument: {} } }], [alice]);
  const successor = tx['transfer']?.contractIds[0] as string;
  await submit('observe', [{ ExerciseCommand: { templateId: '#ledger-rx-demo:Iou:Iou', contractId: successor, choice: 'Iou_Observe', choiceArgument: {} } }], [charlie]);
  await submit('asset', [{ CreateCommand: { templateId: '#ledger-rx-demo:Asset:Asset', createArguments: { issuer: alice, owner: dave, symbol: 'ABC', quantity: '5' } } }], [alice]);
  const iouCc = tx['create-cc']?.contractIds[0] as string;
  await submit('lock', [{ ExerciseCommand: { templateId: '#ledger-rx-demo:Holding:Holding', contractId: iouCc, choice: 'Holding_Lock', choiceArgument: {} } }], [charlie]);
  frank = sandbox.allocateParty('Frank');
});
afterAll(() => sandbox.close());

function createIouArgs(issuer: string, owner: string) {
  return (createIou(issuer, owner) as { CreateCommand: { createArguments: unknown } }).CreateCommand.createArguments;
}

async function read(format: Record<string, unknown>, v: Visibility) {
  const end = sandbox.ledgerEnd();
  const r = await postUpdates(sandbox, { beginExclusive: 0, endInclusive: end, updateFormat: format });
  expect(r.status, r.text).toBe(200);
  return checkAgainstLog(sandbox, r.json, v, { beginExclusive: 0, endInclusive: end });
}

const offsetOf = (name: string) => tx[name]?.offset as number;
type Events = { [k: string]: Record<string, unknown> }[];
const eventsOf = (value: Record<string, unknown>) => value['events'] as Events;
const eventKinds = (value: Record<string, unknown>) => eventsOf(value).map((e) => Object.keys(e)[0]);

describe('event visibility per shape', () => {
  it.each<{ party: 'Bob' | 'Charlie'; shape: Shape; expected: string[] }>([
    { party: 'Bob', shape: ACS, expected: ['create-ab', 'transfer'] },
    { party: 'Bob', shape: LE, expected: ['create-ab', 'transfer', 'transient'] },
    { party: 'Charlie', shape: ACS, expected: ['create-cc', 'transfer'] },
    { party: 'Charlie', shape: LE, expected: ['create-cc', 'transfer', 'observe', 'lock'] },
  ])('$party sees $expected with $shape (stakeholders for ACS delta, witnesses for ledger effects)', async ({ party, shape, expected }) => {
    const p = sandbox.partyId(party);
    const elements = await read(updateFormat([p], shape), { transactions: { shape, parties: [p] } });
    expect(elements.map((e) => e.offset)).toEqual(expected.map(offsetOf));
  });

  it('ACS delta: a transfer is an archive plus the successor create, each for its stakeholders', async () => {
    const bobView = await read(updateFormat([bob]), { transactions: { shape: ACS, parties: [bob] } });
    const transfer = bobView.find((e) => e.offset === offsetOf('transfer'))?.value as Record<string, unknown>;
    expect(eventKinds(transfer)).toEqual(['ArchivedEvent']);
    expect(eventsOf(transfer)[0]?.['ArchivedEvent']).toMatchObject({ contractId: tx['create-ab']?.contractIds[0], witnessParties: [bob], nodeId: 0, implementedInterfaces: [] });
    const all = await read(updateFormat('any'), { transactions: { shape: ACS, parties: 'any' } });
    const transferAll = all.find((e) => e.offset === offsetOf('transfer'))?.value as Record<string, unknown>;
    expect(eventKinds(transferAll)).toEqual(['ArchivedEvent', 'CreatedEvent']);
    expect(eventsOf(transferAll)[1]?.['CreatedEvent']).toMatchObject({ nodeId: 1, signatories: [alice], observers: [charlie], witnessParties: [alice, charlie], acsDelta: true });
  });

  it('a transient contract is invisible in the ACS delta and visible, with acsDelta false, in ledger effects', async () => {
    const acs = await read(updateFormat('any'), { transactions: { shape: ACS, parties: 'any' } });
    expect(acs.some((e) => e.offset === offsetOf('transient'))).toBe(false);
    const le = await read(updateFormat('any', LE), { transactions: { shape: LE, parties: 'any' } });
    const transient = le.find((e) => e.offset === offsetOf('transient'))?.value as Record<string, unknown>;
    expect(eventKinds(transient)).toEqual(['CreatedEvent', 'ExercisedEvent']);
    expect(eventsOf(transient)[0]?.['CreatedEvent']).toMatchObject({ acsDelta: false, nodeId: 0 });
    expect(eventsOf(transient)[1]?.['ExercisedEvent']).toMatchObject({ acsDelta: false, consuming: true, choice: 'Archive', nodeId: 1, lastDescendantNodeId: 1 });
  });

  it('ExercisedEvent fields: consuming, actingParties, witnesses, descendants, result, interface', async () => {
    const le = await read(updateFormat('any', LE), { transactions: { shape: LE, parties: 'any' } });
    const transfer = le.find((e) => e.offset === offsetOf('transfer'))?.value as Record<string, unknown>;
    expect(eventsOf(transfer)[0]?.['ExercisedEvent']).toEqual({
      offset: offsetOf('transfer'),
      nodeId: 0,
      contractId: tx['create-ab']?.contractIds[0],
      templateId: `${demo}:Iou:Iou`,
      interfaceId: null,
      choice: 'Transfer',
      choiceArgument: { newOwner: charlie },
      actingParties: [alice],
      consuming: true,
      witnessParties: [alice, bob],
      lastDescendantNodeId: 1,
      exerciseResult: {},
      packageName: 'ledger-rx-demo',
      implementedInterfaces: [],
      acsDelta: true,
    });
    // The successor is witnessed by the parent's witnesses too.
    expect(eventsOf(transfer)[1]?.['CreatedEvent']).toMatchObject({ witnessParties: [alice, charlie, bob], acsDelta: true });
    const observe = le.find((e) => e.offset === offsetOf('observe'))?.value as Record<string, unknown>;
    expect(eventsOf(observe)[0]?.['ExercisedEvent']).toMatchObject({ consuming: false, acsDelta: false, witnessParties: [alice, charlie], actingParties: [charlie] });
    const lock = le.find((e) => e.offset === offsetOf('lock'))?.value as Record<string, unknown>;
    expect(eventsOf(lock)[0]?.['ExercisedEvent']).toMatchObject({ interfaceId: `${demo}:Holding:Holding`, choice: 'Holding_Lock', consuming: false });
  });

  it('only hosted parties are listed as witnesses, also to any-party readers', async () => {
    const all = await read(updateFormat('any'), { transactions: { shape: ACS, parties: 'any' } });
    const asset = all.find((e) => e.offset === offsetOf('asset'))?.value as Record<string, unknown>;
    expect(eventsOf(asset)[0]?.['CreatedEvent']).toMatchObject({
      witnessParties: [alice],
      signatories: [alice],
      observers: [dave],
      contractKey: { issuer: alice, symbol: 'ABC' },
      contractKeyHash: expect.stringMatching(/^[A-Za-z0-9+/]+=*$/),
    });
    const remote = await read(updateFormat([dave]), { transactions: { shape: ACS, parties: [dave] } });
    expect(remote).toEqual([]);
  });

  it('lists only the requesting parties among the witnesses', async () => {
    const elements = await read(updateFormat([alice, bob]), { transactions: { shape: ACS, parties: [alice, bob] } });
    const created = eventsOf(elements[0]?.value as Record<string, unknown>)[0]?.['CreatedEvent'];
    expect(created).toMatchObject({ witnessParties: [alice, bob] });
    const onlyBob = await read(updateFormat([bob]), { transactions: { shape: ACS, parties: [bob] } });
    expect(eventsOf(onlyBob[0]?.value as Record<string, unknown>)[0]?.['CreatedEvent']).toMatchObject({ witnessParties: [bob] });
  });

  it('commandId is shown to the submitting parties only; workflowId is ""', async () => {
    const asAlice = await read(updateFormat([alice]), { transactions: { shape: ACS, parties: [alice] } });
    expect(asAlice[0]?.value).toMatchObject({ commandId: 'create-ab', workflowId: '' });
    const asBob = await read(updateFormat([bob]), { transactions: { shape: ACS, parties: [bob] } });
    expect(asBob[0]?.value).toMatchObject({ commandId: '', traceContext: null, externalTransactionHash: null, transactionHash: null, paidTrafficCost: expect.any(Number) });
  });
});

describe('template and interface filters', () => {
  it('a template filter matches its template in any version of the package', async () => {
    const assets = await read(updateFormat('any', ACS, { filters: filters(templateFilter('#ledger-rx-demo:Asset:Asset')) }), {
      transactions: { shape: ACS, parties: 'any', templates: ['Asset:Asset'] },
    });
    expect(assets.map((e) => e.offset)).toEqual([offsetOf('asset')]);
    await read(updateFormat([charlie], LE, { filters: filters(templateFilter('#ledger-rx-demo:Iou:Iou')) }), {
      transactions: { shape: LE, parties: [charlie], templates: ['Iou:Iou'] },
    });
  });

  it('an interface filter with includeInterfaceView renders views from the interface view fields', async () => {
    const elements = await read(updateFormat('any', ACS, { filters: filters(interfaceFilter('#ledger-rx-demo:Holding:Holding', true)) }), {
      transactions: { shape: ACS, parties: 'any' },
    });
    const first = eventsOf(elements[0]?.value as Record<string, unknown>)[0]?.['CreatedEvent'];
    expect(first).toMatchObject({
      interfaceViews: [
        {
          interfaceId: `${demo}:Holding:Holding`,
          viewStatus: { code: 0, message: '', details: [] },
          viewValue: { owner: bob, amount: '10.0000000000' },
          implementationPackageId: demo,
        },
      ],
      createdEventBlob: '',
    });
    const asset = elements.find((e) => e.offset === offsetOf('asset'))?.value as Record<string, unknown>;
    expect(eventsOf(asset)[0]?.['CreatedEvent']).toMatchObject({ interfaceViews: [{ viewValue: { owner: dave } }] });
    const transfer = elements.find((e) => e.offset === offsetOf('transfer'))?.value as Record<string, unknown>;
    expect(eventsOf(transfer)[0]?.['ArchivedEvent']).toMatchObject({ implementedInterfaces: [`${demo}:Holding:Holding`] });
  });

  it('without includeInterfaceView there are no views', async () => {
    const elements = await read(updateFormat('any', ACS, { filters: filters(interfaceFilter('#ledger-rx-demo:Holding:Holding')) }), {
      transactions: { shape: ACS, parties: 'any' },
    });
    expect(eventsOf(elements[0]?.value as Record<string, unknown>)[0]?.['CreatedEvent']).toMatchObject({ interfaceViews: [] });
  });

  it.each([
    { name: 'wildcard', f: filters(wildcard(true)), blob: true },
    { name: 'wildcard without blob', f: filters(wildcard(false)), blob: false },
    { name: 'template', f: filters(templateFilter('#ledger-rx-demo:Iou:Iou', true)), blob: true },
    { name: 'interface', f: filters(interfaceFilter('#ledger-rx-demo:Holding:Holding', false, true)), blob: true },
    { name: 'empty cumulative', f: filters(), blob: false },
  ])('createdEventBlob follows includeCreatedEventBlob ($name)', async ({ f, blob }) => {
    const elements = await read(updateFormat([bob], ACS, { filters: f }), { transactions: { shape: ACS, parties: [bob] } });
    const created = eventsOf(elements[0]?.value as Record<string, unknown>)[0]?.['CreatedEvent'] as { createdEventBlob: string };
    if (blob) {
      expect(created.createdEventBlob).toMatch(/^[A-Za-z0-9+/]+=*$/);
      expect(JSON.parse(Buffer.from(created.createdEventBlob, 'base64').toString())).toMatchObject({ contractId: tx['create-ab']?.contractIds[0] });
    } else {
      expect(created.createdEventBlob).toBe('');
    }
  });
});

describe('topology events and the legacy filter', () => {
  it('includeTopologyEvents selects authorization events of the listed parties (all when empty)', async () => {
    const onlyFrank = await read({ includeTopologyEvents: { includeParticipantAuthorizationEvents: { parties: [frank] } } }, { topology: [frank] });
    expect(onlyFrank).toHaveLength(1);
    expect(onlyFrank[0]?.value).toMatchObject({
      events: [{ event: { ParticipantAuthorizationAdded: { value: { partyId: frank, participantId: sandbox.state.participantId, participantPermission: 'PARTICIPANT_PERMISSION_SUBMISSION' } } } }],
      traceContext: null,
    });
    await read({ includeTopologyEvents: { includeParticipantAuthorizationEvents: { parties: [] } } }, { topology: 'any' });
    expect(await read({ includeTopologyEvents: { includeParticipantAuthorizationEvents: { parties: [bob] } } }, { topology: [bob] })).toEqual([]);
  });

  it.each([false, true])('the legacy filter (verbose %s) gives ACS-delta transactions, reassignments and topology events of its parties (seed Rule 1)', async (verbose) => {
    const end = sandbox.ledgerEnd();
    const r = await postUpdates(sandbox, { beginExclusive: 0, endInclusive: end, filter: { filtersByParty: { [bob]: {}, [frank]: {} } }, verbose });
    const elements = checkAgainstLog(sandbox, r.json, { transactions: { shape: ACS, parties: [bob, frank] }, reassignments: { parties: [bob, frank] }, topology: [bob, frank] }, { beginExclusive: 0, endInclusive: end });
    expect(elements.map((e) => e.kind)).toEqual(['Transaction', 'Transaction', 'TopologyTransaction']);
    const viaFormat = await postUpdates(sandbox, {
      beginExclusive: 0,
      endInclusive: end,
      updateFormat: { ...updateFormat([bob, frank], ACS, { reassignments: true }), includeTopologyEvents: { includeParticipantAuthorizationEvents: { parties: [bob, frank] } } },
    });
    expect(r.json).toEqual(viaFormat.json);
  });

  it('the legacy any-party filter includes every topology event', async () => {
    const end = sandbox.ledgerEnd();
    const r = await postUpdates(sandbox, { beginExclusive: 0, endInclusive: end, filter: { filtersForAnyParty: {} } });
    checkAgainstLog(sandbox, r.json, { transactions: { shape: ACS, parties: 'any' }, reassignments: { parties: 'any' }, topology: 'any' }, { beginExclusive: 0, endInclusive: end });
  });

  it('verbose in the event format changes nothing (the JSON is label-full either way)', async () => {
    const end = sandbox.ledgerEnd();
    const plain = await postUpdates(sandbox, { beginExclusive: 0, endInclusive: end, updateFormat: updateFormat('any', LE) });
    const verbose = await postUpdates(sandbox, {
      beginExclusive: 0,
      endInclusive: end,
      updateFormat: { includeTransactions: { eventFormat: { filtersForAnyParty: {}, verbose: true }, transactionShape: LE } },
    });
    checkAgainstLog(sandbox, plain.json, { transactions: { shape: LE, parties: 'any' } }, { beginExclusive: 0, endInclusive: end });
    expect(verbose.json).toEqual(plain.json);
  });
});
