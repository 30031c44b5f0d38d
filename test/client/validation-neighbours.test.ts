import { lastValueFrom, toArray } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import type { LedgerClient } from '../../src/client/index.js';
import type { GetUpdatesRequest, UpdateFormat } from '../../src/schemas/index.js';
import { ALICE, updatesRequest, user, versionResponse } from './support/fixtures.js';
import { createMockLedger } from './support/mock-ledger.js';

/**
 * The positive side of the client-side rules (docs/server-behavior.md#updates-validation-order, #reassignment-validation-order, #user-update-validation-order, #rights-revoke-validation-order): requests next to
 * the rejected ones that the real server ACCEPTS must still be sent, unchanged. Each case registers one
 * answer and asserts that exactly one request reached the mocked participant, with the body as written.
 */
let ledger: ReturnType<typeof createMockLedger>;
afterEach(async () => {
  await ledger.done();
});

const template = (templateId: string) => ({ cumulative: [{ identifierFilter: { TemplateFilter: { value: { templateId, includeCreatedEventBlob: false } } } }] });
const iface = (interfaceId: string) => ({ cumulative: [{ identifierFilter: { InterfaceFilter: { value: { interfaceId } } } }] });

/** [description, request] — each is a valid `POST /v2/updates` body next to a rejected one. */
const updates: [string, GetUpdatesRequest][] = [
  ['an update format with none of the three parts', updatesRequest({ updateFormat: {} })],
  ['topology events for every party (empty list)', updatesRequest({ updateFormat: { includeTopologyEvents: { includeParticipantAuthorizationEvents: { parties: [] } } } })],
  ['topology events for a party', updatesRequest({ updateFormat: { includeTopologyEvents: { includeParticipantAuthorizationEvents: { parties: [ALICE, 'Bob with space'] } } } })],
  ['any-party transactions only', updatesRequest({ updateFormat: { includeTransactions: { eventFormat: { filtersForAnyParty: {} }, transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' } } })],
  [
    'package-name template and interface filters',
    updatesRequest({
      updateFormat: {
        includeTransactions: { eventFormat: { filtersByParty: { [ALICE]: template('#my-model:Iou.Main:Iou') }, verbose: true }, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' },
        includeReassignments: { filtersByParty: {}, filtersForAnyParty: iface('#my-model:Iou:Transferable') },
      } as UpdateFormat,
    }),
  ],
  ['Empty identifier filters (a template wildcard)', updatesRequest({ updateFormat: { includeReassignments: { filtersByParty: { [ALICE]: { cumulative: [{ identifierFilter: { Empty: {} } }, {}] } } } } })],
];

describe('valid neighbours of rejected requests are sent', () => {
  it.each(updates)('updates: %s', async (_name, request) => {
    ledger = createMockLedger();
    ledger.expect('POST', '/v2/updates', { data: [] });
    await lastValueFrom(ledger.client.updates(request).pipe(toArray()));
    expect(ledger.dispatched()).toBe(1);
    expect(ledger.requests[0]?.body).toEqual(JSON.parse(JSON.stringify(request)));
  });

  it('updates: a legacy filter for any party, with a package-name template', async () => {
    ledger = createMockLedger();
    ledger.expect('POST', '/v2/updates', { data: [] });
    await lastValueFrom(ledger.client.updates({ beginExclusive: 0, filter: { filtersForAnyParty: template('#my-model:Iou:Iou') } }).pipe(toArray()));
    expect(ledger.dispatched()).toBe(1);
  });

  it('updates: bounded options at their edges (limit 0, idle 0) and booleans', async () => {
    ledger = createMockLedger();
    ledger.expect('POST', '/v2/updates', { data: [] });
    const options = { limit: 0, streamIdleTimeoutMs: 0, validate: false, rawText: true, signal: new AbortController().signal };
    await lastValueFrom(ledger.client.updates(updatesRequest(), options).pipe(toArray()));
    expect(ledger.requests[0]?.path).toBe('/v2/updates?limit=0&stream_idle_timeout_ms=0');
  });

  /** [description, request] — valid `PATCH /v2/users/{id}` bodies next to rejected ones. */
  const userUpdates: [string, string, Record<string, unknown>][] = [
    ['a user id with every punctuation the server allows', "a@b.c!d`e-f#g+h'i~j_k|l:m(n)", { primaryParty: ALICE }],
    ['a cleared primary party', 'alice', { primaryParty: '' }],
    ['resource versions Java parses: +5', 'alice', { metadata: { resourceVersion: '+5' } }],
    ['resource versions Java parses: -1', 'alice', { metadata: { resourceVersion: '-1' } }],
    ['an empty resource version (no precondition)', 'alice', { metadata: { resourceVersion: '' } }],
    ['annotation keys with a prefix, and "" deleting a key', 'alice', { metadata: { annotations: { 'example.com/team': 'blue', 'Old.Key': '' } } }],
    ['an identity provider id with "/" and space', 'alice', { identityProviderId: 'idp/acme corp' }],
  ];

  it.each(userUpdates)('updateUser: %s', async (_name, id, fields) => {
    ledger = createMockLedger();
    ledger.expect('PATCH', `/v2/users/${encodeURIComponent(id)}`, { data: { user: user(id) } });
    const request = { user: { id, ...fields }, updateMask: { paths: ['primary_party', 'metadata'] } };
    await ledger.client.updateUser(id, request);
    expect(ledger.dispatched()).toBe(1);
    expect(ledger.requests[0]?.body).toEqual(request);
  });

  it('revokeUserRights: every party-carrying kind with a valid party, and an empty rights list', async () => {
    ledger = createMockLedger();
    ledger.expect('PATCH', '/v2/users/alice/rights', { data: { newlyRevokedRights: [] } }, 2);
    const rights = [
      { kind: { CanActAs: { value: { party: ALICE } } } },
      { kind: { CanReadAs: { value: { party: ALICE } } } },
      { kind: { CanExecuteAs: { value: { party: ALICE } } } },
    ];
    await ledger.client.revokeUserRights('alice', { userId: 'alice', rights, identityProviderId: 'idp-1' });
    await ledger.client.revokeUserRights('alice', { userId: 'alice', rights: [] });
    expect(ledger.dispatched()).toBe(2);
  });

  it('submitAndWaitForReassignment: an event format for any party', async () => {
    ledger = createMockLedger();
    const reassignment = { updateId: 'u', commandId: 'r', workflowId: '', offset: 7, events: [], traceContext: null, recordTime: '2026-06-30T10:15:30Z', synchronizerId: 's', paidTrafficCost: null };
    ledger.expect('POST', '/v2/commands/submit-and-wait-for-reassignment', { data: { reassignment } });
    const commands = [{ command: { UnassignCommand: { value: { contractId: '00ab', source: 'a', target: 'b' } } } }];
    await ledger.client.submitAndWaitForReassignment({ reassignmentCommands: { commandId: 'r', submitter: ALICE, commands }, eventFormat: { filtersForAnyParty: {} } });
    expect(ledger.dispatched()).toBe(1);
  });

  /** Call options every method accepts: none, `{}`, a null-prototype object, a signal, and a signal lookalike. */
  const lookalike = { aborted: false, reason: undefined, addEventListener: () => undefined, removeEventListener: () => undefined };
  const accepted: [string, unknown][] = [
    ['undefined', undefined],
    ['{}', {}],
    ['a null-prototype object', Object.create(null) as object],
    ['an AbortSignal', { signal: new AbortController().signal }],
    ['an AbortSignal lookalike', { signal: lookalike }],
    ['unknown keys', { retries: 3 }],
  ];
  const unary: [string, string, string, (c: LedgerClient, o: never) => Promise<unknown>, unknown][] = [
    ['ledgerEnd', 'GET', '/v2/state/ledger-end', (c, o) => c.ledgerEnd(o), { offset: 1 }],
    ['version', 'GET', '/v2/version', (c, o) => c.version(o), versionResponse],
    ['getUser', 'GET', '/v2/users/alice', (c, o) => c.getUser('alice', o), { user: user('alice') }],
    ['listParties', 'GET', '/v2/parties', (c, o) => c.listParties(o), { partyDetails: [], nextPageToken: '' }],
  ];
  for (const [method, verb, path, call, data] of unary) {
    it.each(accepted)(`${method} accepts options: %s`, async (_name, options) => {
      ledger = createMockLedger();
      ledger.expect(verb, path, { data });
      await call(ledger.client, options as never);
      expect(ledger.dispatched()).toBe(1);
    });
  }
});
