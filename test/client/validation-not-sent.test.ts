import { afterEach, describe, expect, it } from 'vitest';
import type { LedgerClient } from '../../src/client/index.js';
import { InvalidArgumentError } from '../../src/errors/index.js';
import { ALICE, commands, updateFormat, updatesRequest } from './support/fixtures.js';
import { createMockLedger } from './support/mock-ledger.js';

let ledger: ReturnType<typeof createMockLedger>;
afterEach(async () => {
  // No interceptor is registered: any request that reached the agent would be counted here.
  expect(ledger.dispatched()).toBe(0);
  await ledger.done();
});

const unassign = { command: { UnassignCommand: { value: { contractId: '00ab', source: 'a', target: 'b' } } } };
const reassign = { commandId: 'r', submitter: 'A', commands: [unassign] };
const alice = (user: Record<string, unknown>, paths = ['primary_party']) => ({ user: { id: 'alice', ...user }, updateMask: { paths } });
const txFormat = (eventFormat: object, transactionShape = 'TRANSACTION_SHAPE_ACS_DELTA') =>
  ({ includeTransactions: { eventFormat, transactionShape } }) as never;
const byTemplate = (templateId: string) => ({ cumulative: [{ identifierFilter: { TemplateFilter: { value: { templateId } } } }] });
const byInterface = (interfaceId: string) => ({ cumulative: [{ identifierFilter: { InterfaceFilter: { value: { interfaceId } } } }] });
const templateAt = (prefix: string) => `${prefix}.cumulative[0].identifierFilter.TemplateFilter.value.templateId`;

/** [description, call, expected field] — each call must reject with InvalidArgumentError naming the field. */
const cases: [string, (c: LedgerClient) => Promise<unknown>, string][] = [
  ['submit: schema (missing commandId)', (c) => c.submit({ commands: [], actAs: ['A'] } as never), 'commandId'],
  ['submit: empty commands', (c) => c.submit(commands({ commands: [] })), 'commands'],
  ['submit: empty actAs', (c) => c.submit(commands({ actAs: [] })), 'actAs'],
  ['submit: empty commandId', (c) => c.submit(commands({ commandId: '' })), 'commandId'],
  ['submit: both min ledger times', (c) => c.submit(commands({ minLedgerTimeAbs: '2026-01-01T00:00:00Z', minLedgerTimeRel: { seconds: 1, nanos: 0 } })), 'minLedgerTimeRel'],
  ['submit: tapsMaxPasses 0', (c) => c.submit(commands({ tapsMaxPasses: 0 })), 'tapsMaxPasses'],
  ['submit: negative dedup duration', (c) => c.submit(commands({ deduplicationPeriod: { DeduplicationDuration: { value: { seconds: -5, nanos: 0 } } } })), 'deduplicationPeriod.DeduplicationDuration.value'],
  ['submit: negative dedup offset', (c) => c.submit(commands({ deduplicationPeriod: { DeduplicationOffset: { value: -1 } } })), 'deduplicationPeriod.DeduplicationOffset.value'],
  ['listVettedPackages: negative pageSize', (c) => c.listVettedPackages({ pageSize: -1 }), 'pageSize'],
  ['updateVettedPackages: Empty operation', (c) => c.updateVettedPackages({ changes: [{ operation: { Empty: {} } }] }), 'changes[0].operation'],
  ['updateVettedPackages: missing operation', (c) => c.updateVettedPackages({ changes: [{}] }), 'changes[0].operation'],
  ['updateVettedPackages: {id, name} ref', (c) => c.updateVettedPackages({ changes: [{ operation: { Vet: { value: { packages: [{ packageId: 'p', packageName: 'n' }] } } } }] }), 'changes[0].operation.Vet.value.packages[0]'],
  ['updateVettedPackages: {version} ref', (c) => c.updateVettedPackages({ changes: [{ operation: { Unvet: { value: { packages: [{ packageVersion: '1' }] } } } }] }), 'changes[0].operation.Unvet.value.packages[0]'],
  ['updateVettedPackages: Prior 0', (c) => c.updateVettedPackages({ changes: [], expectedTopologySerial: { serial: { Prior: { value: 0 } } } }), 'expectedTopologySerial.serial.Prior.value'],
  ['updateVettedPackages: bad endpoint', (c) => c.updateVettedPackages({ changes: [] }, { endpoint: 'v3' as never }), 'endpoint'],
  ['updateUser: path id differs from user.id', (c) => c.updateUser('alice', { user: { id: 'bob' }, updateMask: { paths: ['primary_party'] } }), 'user.id'],
  ['updateUser: empty mask', (c) => c.updateUser('alice', { user: { id: 'alice' }, updateMask: { paths: [] } }), 'updateMask.paths'],
  ['updateUser: camelCase path', (c) => c.updateUser('alice', { user: { id: 'alice' }, updateMask: { paths: ['primaryParty'] } }), 'updateMask.paths[0]'],
  ['updateUser: duplicate path', (c) => c.updateUser('alice', { user: { id: 'alice' }, updateMask: { paths: ['metadata', 'metadata'] } }), 'updateMask.paths[1]'],
  ['updateUser: empty path id', (c) => c.updateUser('', { user: { id: '' }, updateMask: { paths: ['metadata'] } }), 'userId'],
  ['revokeUserRights: path id differs from userId', (c) => c.revokeUserRights('alice', { userId: 'bob', rights: [] }), 'userId'],
  ['revokeUserRights: Empty kind', (c) => c.revokeUserRights('alice', { userId: 'alice', rights: [{ kind: { Empty: {} } }] }), 'rights[0].kind'],
  ['grantUserRights: path id differs', (c) => c.grantUserRights('alice', { userId: '', rights: [] }), 'userId'],
  ['submitAndWaitForReassignment: empty commandId', (c) => c.submitAndWaitForReassignment({ reassignmentCommands: { commandId: '', submitter: 'A', commands: [unassign] } }), 'reassignmentCommands.commandId'],
  ['submitAndWaitForReassignment: empty submitter', (c) => c.submitAndWaitForReassignment({ reassignmentCommands: { commandId: 'r', submitter: '', commands: [unassign] } }), 'reassignmentCommands.submitter'],
  ['submitAndWaitForReassignment: Empty command', (c) => c.submitAndWaitForReassignment({ reassignmentCommands: { commandId: 'r', submitter: 'A', commands: [{ command: { Empty: {} } }] } }), 'reassignmentCommands.commands[0].command'],
  ['getUser: empty id', (c) => c.getUser(''), 'userId'],
  ['createUser: empty id', (c) => c.createUser({ user: { id: '' } }), 'user.id'],
  // stateless user rules of docs/server-behavior.md#user-update-validation-order step 4
  ['updateUser: resourceVersion not a number', (c) => c.updateUser('alice', alice({ metadata: { resourceVersion: 'abc' } })), 'user.metadata.resourceVersion'],
  ['updateUser: resourceVersion a decimal', (c) => c.updateUser('alice', alice({ metadata: { resourceVersion: '1.5' } })), 'user.metadata.resourceVersion'],
  ['updateUser: resourceVersion beyond int64', (c) => c.updateUser('alice', alice({ metadata: { resourceVersion: '99999999999999999999' } })), 'user.metadata.resourceVersion'],
  ['updateUser: user id syntax', (c) => c.updateUser('ops team', { user: { id: 'ops team' }, updateMask: { paths: ['metadata'] } }), 'user.id'],
  ['updateUser: primaryParty syntax', (c) => c.updateUser('alice', alice({ primaryParty: 'alice@corp' })), 'user.primaryParty'],
  ['updateUser: identityProviderId syntax', (c) => c.updateUser('alice', alice({ identityProviderId: 'idp|x' }, ['identity_provider_id'])), 'user.identityProviderId'],
  ['updateUser: annotation key syntax', (c) => c.updateUser('alice', alice({ metadata: { annotations: { 'my key': 'v' } } }, ['metadata'])), 'user.metadata.annotations'],
  ['updateUser: annotation prefix syntax', (c) => c.updateUser('alice', alice({ metadata: { annotations: { '_x.com/k': 'v' } } }, ['metadata'])), 'user.metadata.annotations'],
  ['updateUser: annotations over 256 KiB', (c) => c.updateUser('alice', alice({ metadata: { annotations: { k: 'v'.repeat(262_144) } } }, ['metadata'])), 'user.metadata.annotations'],
  // stateless rights rules of docs/server-behavior.md#rights-revoke-validation-order step 4
  ['revokeUserRights: user id syntax', (c) => c.revokeUserRights('a/b', { userId: 'a/b', rights: [] }), 'userId'],
  ['revokeUserRights: party syntax', (c) => c.revokeUserRights('alice', { userId: 'alice', rights: [{ kind: { CanActAs: { value: { party: 'Alice@x' } } } }] }), 'rights[0].kind.CanActAs.value.party'],
  ['revokeUserRights: empty party', (c) => c.revokeUserRights('alice', { userId: 'alice', rights: [{ kind: { CanExecuteAs: { value: { party: '' } } } }] }), 'rights[0].kind.CanExecuteAs.value.party'],
  ['revokeUserRights: identityProviderId syntax', (c) => c.revokeUserRights('alice', { userId: 'alice', rights: [], identityProviderId: 'i@p' }), 'identityProviderId'],
  ['grantUserRights: party syntax', (c) => c.grantUserRights('alice', { userId: 'alice', rights: [{ kind: { CanReadAs: { value: { party: 'a/b' } } } }] }), 'rights[0].kind.CanReadAs.value.party'],
  ['getUser: user id syntax', (c) => c.getUser('ops team'), 'userId'],
  ['listUserRights: user id syntax', (c) => c.listUserRights('a'.repeat(129)), 'userId'],
  // the event format of a reassignment (docs/server-behavior.md#reassignment-validation-order)
  ['submitAndWaitForReassignment: empty eventFormat', (c) => c.submitAndWaitForReassignment({ reassignmentCommands: reassign, eventFormat: { filtersByParty: {} } }), 'eventFormat'],
  ['submitAndWaitForReassignment: package-id filter', (c) => c.submitAndWaitForReassignment({ reassignmentCommands: reassign, eventFormat: { filtersForAnyParty: byTemplate('abc:M:T') } }), templateAt('eventFormat.filtersForAnyParty')],
  // call options
  ['ledgerEnd: signal a string', (c) => c.ledgerEnd({ signal: 'x' } as never), 'signal'],
  ['ledgerEnd: options a number', (c) => c.ledgerEnd(5 as never), 'options'],
  ['ledgerEnd: options null', (c) => c.ledgerEnd(null as never), 'options'],
  ['version: signal a plain object', (c) => c.version({ signal: {} } as never), 'signal'],
  ['latestPrunedOffsets: options an array', (c) => c.latestPrunedOffsets([] as never), 'options'],
  ['listParties: signal an AbortController', (c) => c.listParties({ signal: new AbortController() } as never), 'signal'],
  ['listPackages: options a string', (c) => c.listPackages('fast' as never), 'options'],
  ['getUser: signal null', (c) => c.getUser('alice', { signal: null } as never), 'signal'],
  ['listUserRights: options a Map', (c) => c.listUserRights('alice', new Map() as never), 'options'],
  ['submit: options a number', (c) => c.submit(commands(), 7 as never), 'options'],
  ['submitAndWaitForReassignment: signal a number', (c) => c.submitAndWaitForReassignment({ reassignmentCommands: reassign }, { signal: 1 } as never), 'signal'],
  ['updateUser: options true', (c) => c.updateUser('alice', alice({}), true as never), 'options'],
  ['revokeUserRights: signal a string', (c) => c.revokeUserRights('alice', { userId: 'alice', rights: [] }, { signal: 's' } as never), 'signal'],
  ['grantUserRights: options a function', (c) => c.grantUserRights('alice', { userId: 'alice', rights: [] }, (() => undefined) as never), 'options'],
  ['createUser: signal a string', (c) => c.createUser({ user: { id: 'carol' } }, { signal: 'x' } as never), 'signal'],
  ['allocateParty: options a number', (c) => c.allocateParty({ partyIdHint: 'Zed' }, 3 as never), 'options'],
  ['listVettedPackages: signal a string', (c) => c.listVettedPackages({}, { signal: 'x' } as never), 'signal'],
  ['updateVettedPackages: options a number', (c) => c.updateVettedPackages({ changes: [] }, 2 as never), 'options'],
  ['updateVettedPackages: endpoint null', (c) => c.updateVettedPackages({ changes: [] }, { endpoint: null } as never), 'endpoint'],
];

describe('client-side validation rejects and sends nothing', () => {
  it.each(cases)('%s', async (_name, call, field) => {
    ledger = createMockLedger();
    const error = await call(ledger.client).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as InvalidArgumentError).field).toBe(field);
    expect((error as InvalidArgumentError).message).toContain(`'${field}'`);
  });

  /** Observable/iterable methods throw synchronously at the call. */
  const streaming: [string, (c: LedgerClient) => unknown, string][] = [
    ['updates: filter and updateFormat', (c) => c.updates(updatesRequest({ filter: { filtersByParty: { A: {} } } })), 'filter'],
    ['updates: verbose true with updateFormat', (c) => c.updates(updatesRequest({ verbose: true })), 'verbose'],
    ['updates: neither filter nor updateFormat', (c) => c.updates({ beginExclusive: 0 }), 'updateFormat'],
    ['updates: descendingOrder without endInclusive', (c) => c.updates(updatesRequest({ descendingOrder: true })), 'descendingOrder'],
    ['updates: negative beginExclusive', (c) => c.updates(updatesRequest({ beginExclusive: -1 })), 'beginExclusive'],
    ['updates: endInclusive 0', (c) => c.updates(updatesRequest({ beginExclusive: 0, endInclusive: 0 })), 'endInclusive'],
    ['updates: endInclusive before begin', (c) => c.updates(updatesRequest({ beginExclusive: 9, endInclusive: 3 })), 'endInclusive'],
    ['updates: negative limit', (c) => c.updates(updatesRequest(), { limit: -1 }), 'limit'],
    ['updates: fractional streamIdleTimeoutMs', (c) => c.updates(updatesRequest(), { streamIdleTimeoutMs: 1.5 }), 'streamIdleTimeoutMs'],
    ['iterateUpdates: filter and updateFormat', (c) => c.iterateUpdates({ beginExclusive: 0, updateFormat, filter: {} }), 'filter'],
    ['listAllVettedPackages: negative pageSize', (c) => c.listAllVettedPackages({ pageSize: -5 }), 'pageSize'],
    // stateless format rules of docs/server-behavior.md#updates-validation-order step 4
    ['updates: empty transactions event format', (c) => c.updates(updatesRequest({ updateFormat: txFormat({ filtersByParty: {} }) })), 'updateFormat.includeTransactions.eventFormat'],
    ['updates: empty reassignments event format', (c) => c.updates(updatesRequest({ updateFormat: { includeReassignments: { filtersByParty: {}, verbose: true } } })), 'updateFormat.includeReassignments'],
    ['updates: legacy filter without parties', (c) => c.updates({ beginExclusive: 0, filter: { filtersByParty: {} } }), 'filter'],
    ['updates: UNSPECIFIED transaction shape', (c) => c.updates(updatesRequest({ updateFormat: txFormat({ filtersByParty: { [ALICE]: {} } }, 'TRANSACTION_SHAPE_UNSPECIFIED') })), 'updateFormat.includeTransactions.transactionShape'],
    ['updates: missing transaction shape', (c) => c.updates(updatesRequest({ updateFormat: { includeTransactions: { eventFormat: { filtersForAnyParty: {} } } } as never })), 'updateFormat.includeTransactions.transactionShape'],
    ['updates: package-id template (transactions)', (c) => c.updates(updatesRequest({ updateFormat: txFormat({ filtersByParty: { [ALICE]: byTemplate('9a1b:Iou:Iou') } }) })), templateAt(`updateFormat.includeTransactions.eventFormat.filtersByParty.${ALICE}`)],
    ['updates: package-id interface (reassignments)', (c) => c.updates(updatesRequest({ updateFormat: { includeReassignments: { filtersForAnyParty: byInterface('9a1b:Iou:I') } } })), 'updateFormat.includeReassignments.filtersForAnyParty.cumulative[0].identifierFilter.InterfaceFilter.value.interfaceId'],
    ['updates: package-id template (legacy filter)', (c) => c.updates({ beginExclusive: 0, filter: { filtersByParty: { [ALICE]: byTemplate('9a1b:Iou:Iou') } } }), templateAt(`filter.filtersByParty.${ALICE}`)],
    ['updates: invalid party key', (c) => c.updates(updatesRequest({ updateFormat: txFormat({ filtersByParty: { 'alice@corp': {} } }) })), 'updateFormat.includeTransactions.eventFormat.filtersByParty'],
    ['updates: invalid party key (legacy filter)', (c) => c.updates({ beginExclusive: 0, filter: { filtersByParty: { 'a/b': {} } } }), 'filter.filtersByParty'],
    ['updates: invalid topology party', (c) => c.updates(updatesRequest({ updateFormat: { includeTopologyEvents: { includeParticipantAuthorizationEvents: { parties: ['bad/party'] } } } })), 'updateFormat.includeTopologyEvents.includeParticipantAuthorizationEvents.parties[0]'],
    ['iterateUpdates: empty transactions event format', (c) => c.iterateUpdates(updatesRequest({ updateFormat: txFormat({}) })), 'updateFormat.includeTransactions.eventFormat'],
    // call options
    ['updates: options a number', (c) => c.updates(updatesRequest(), 5 as never), 'options'],
    ['updates: signal a string', (c) => c.updates(updatesRequest(), { signal: 'x' } as never), 'signal'],
    ['updates: validate not a boolean', (c) => c.updates(updatesRequest(), { validate: 'no' } as never), 'validate'],
    ['updates: rawText not a boolean', (c) => c.updates(updatesRequest(), { rawText: 1 } as never), 'rawText'],
    ['updates: limit null', (c) => c.updates(updatesRequest(), { limit: null } as never), 'limit'],
    ['iterateUpdates: options null', (c) => c.iterateUpdates(updatesRequest(), null as never), 'options'],
    ['iterateUpdates: streamIdleTimeoutMs a string', (c) => c.iterateUpdates(updatesRequest(), { streamIdleTimeoutMs: '500' } as never), 'streamIdleTimeoutMs'],
    ['listAllVettedPackages: signal a string', (c) => c.listAllVettedPackages({}, { signal: 'x' } as never), 'signal'],
    ['listAllVettedPackages: options an array', (c) => c.listAllVettedPackages({}, [] as never), 'options'],
  ];

  it.each(streaming)('%s (throws at the call)', (_name, call, field) => {
    ledger = createMockLedger();
    let error: unknown;
    try {
      call(ledger.client);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as InvalidArgumentError).field).toBe(field);
    expect((error as InvalidArgumentError).message).toContain(`'${field}'`);
  });
});
