import type { GetUpdatesRequest, JsCommands, UpdateFormat } from '../../../src/schemas/index.js';

export const ALICE = 'Alice::1220aa';
export const BOB = 'Bob::1220bb';

/** A minimal valid update format: ACS-delta transactions for Alice. */
export const updateFormat: UpdateFormat = {
  includeTransactions: {
    eventFormat: { filtersByParty: { [ALICE]: { cumulative: [] } }, verbose: false },
    transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA',
  },
};

/** A valid updates request. */
export function updatesRequest(overrides: Partial<GetUpdatesRequest> = {}): GetUpdatesRequest {
  return { beginExclusive: 10, updateFormat, ...overrides };
}

/** A valid submission. */
export function commands(overrides: Partial<JsCommands> = {}): JsCommands {
  return {
    commands: [{ CreateCommand: { templateId: '#model-tests:Iou:Iou', createArguments: { issuer: ALICE, amount: '1.0' } } }],
    commandId: 'cmd-1',
    actAs: [ALICE],
    ...overrides,
  };
}

/** A `VettedPackages` element. */
export function vetted(participant: string, serial = 1) {
  return {
    packages: [{ packageId: `pkg-${participant}`, validFromInclusive: null, validUntilExclusive: null, packageName: 'm', packageVersion: '1.0.0' }],
    participantId: `${participant}::1220ab`,
    synchronizerId: 'global::1220cd',
    topologySerial: serial,
  };
}

/** A transaction element of `POST /v2/updates`. */
export function transactionElement(offset: number) {
  return {
    update: {
      Transaction: {
        value: {
          updateId: `u-${offset}`,
          commandId: '',
          workflowId: '',
          effectiveAt: '2026-06-30T10:15:29Z',
          events: [],
          offset,
          synchronizerId: 'global::1220cd',
          traceContext: null,
          recordTime: '2026-06-30T10:15:30Z',
          externalTransactionHash: null,
          paidTrafficCost: null,
          transactionHash: null,
        },
      },
    },
  };
}

/** An offset checkpoint element of `POST /v2/updates`. */
export function checkpointElement(offset: number) {
  return { update: { OffsetCheckpoint: { value: { offset, synchronizerTimes: [] } } } };
}

/** A `GetLedgerApiVersionResponse`. */
export const versionResponse = {
  version: '3.6.0',
  features: {
    experimental: { staticTime: { supported: false }, commandInspectionService: { supported: true } },
    userManagement: { supported: true, maxRightsPerUser: 1000, maxUsersPageSize: 1000 },
    partyManagement: { maxPartiesPageSize: 10000 },
    offsetCheckpoint: { maxOffsetCheckpointEmissionDelay: { seconds: 75, nanos: 0, unknownFields: { fields: {} } } },
    packageFeature: { maxVettedPackagesPageSize: 100 },
  },
};

/** A user as the server returns it. */
export function user(id: string) {
  return {
    id,
    primaryParty: '',
    isDeactivated: false,
    metadata: { resourceVersion: '1', annotations: {} },
    identityProviderId: '',
    primaryPartyAuthentication: false,
  };
}

/** A `CreatedEvent` of contract `contractId`. */
export function createdEvent(contractId: string, offset = 5) {
  return {
    offset,
    nodeId: 0,
    contractId,
    templateId: 'pkg:Iou:Iou',
    contractKey: null,
    createArgument: { issuer: ALICE },
    createdEventBlob: '',
    interfaceViews: [],
    witnessParties: [ALICE],
    signatories: [ALICE],
    observers: [],
    createdAt: '2026-06-30T10:15:30Z',
    packageName: 'model-tests',
    representativePackageId: 'pkg',
    acsDelta: true,
  };
}

/** An active-contracts entry (`JsActiveContract`), with a continuation token unless `token` is `null`. */
export function activeEntry(contractId: string, token: string | null = Buffer.from(`after-${contractId}`).toString('base64')) {
  return {
    workflowId: '',
    contractEntry: { JsActiveContract: { createdEvent: createdEvent(contractId), synchronizerId: 'global::1220cd', reassignmentCounter: 0 } },
    streamContinuationToken: token ?? '',
  };
}

/** A completion element of a completion stream (`status` absent: success). */
export function completionElement(offset: number, overrides: Record<string, unknown> = {}) {
  return {
    completionResponse: {
      Completion: {
        value: {
          commandId: 'cmd-1',
          updateId: `u-${offset}`,
          userId: 'alice',
          actAs: [ALICE],
          submissionId: 'sub-1',
          offset,
          synchronizerTime: { synchronizerId: 'global::1220cd', recordTime: '2026-06-30T10:15:30Z' },
          ...overrides,
        },
      },
    },
  };
}

/** An offset checkpoint element of a completion stream. */
export function completionCheckpoint(offset: number) {
  return { completionResponse: { OffsetCheckpoint: { value: { offset, synchronizerTimes: [] } } } };
}
