/** Elements of the `POST /v2/updates` array as the server sends them (every field present, nulls included). */

const party = (name: string): string => `${name}::1220${'ab'.repeat(32)}`;
const templateId = `${'9a'.repeat(32)}:Iou:Iou`;
const synchronizerId = `global::1220${'cd'.repeat(32)}`;

export function createdEvent(offset: number, nodeId = 0): Record<string, unknown> {
  return {
    CreatedEvent: {
      offset,
      nodeId,
      contractId: `00${'11'.repeat(32)}`,
      templateId,
      contractKey: null,
      contractKeyHash: '',
      createArgument: { issuer: party('Alice'), owner: party('Bob'), amount: '10.0000000000', note: 'Zürich 中 😀' },
      createdEventBlob: '',
      interfaceViews: [],
      witnessParties: [party('Alice')],
      signatories: [party('Alice')],
      observers: [party('Bob')],
      createdAt: '2026-06-30T10:15:29.987654Z',
      packageName: 'model-tests',
      representativePackageId: '9a'.repeat(32),
      acsDelta: true,
    },
  };
}

export function transaction(offset: number, events: unknown[] = [createdEvent(offset)]): Record<string, unknown> {
  return {
    update: {
      Transaction: {
        value: {
          updateId: `1220${'f0'.repeat(32)}`,
          commandId: '',
          workflowId: '',
          effectiveAt: '2026-06-30T10:15:29.987654Z',
          events,
          offset,
          synchronizerId,
          traceContext: { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01', tracestate: null },
          recordTime: '2026-06-30T10:15:30.001Z',
          externalTransactionHash: null,
          paidTrafficCost: 1532,
          transactionHash: null,
        },
      },
    },
  };
}

export function reassignment(offset: number): Record<string, unknown> {
  return {
    update: {
      Reassignment: {
        value: {
          updateId: `1220${'e1'.repeat(32)}`,
          commandId: '',
          workflowId: '',
          offset,
          events: [{
            JsUnassignedEvent: {
              value: {
                reassignmentId: `1220${'77'.repeat(32)}`,
                contractId: `00${'22'.repeat(32)}`,
                templateId,
                source: synchronizerId,
                target: `other::1220${'ef'.repeat(32)}`,
                submitter: party('Alice'),
                reassignmentCounter: 1,
                assignmentExclusivity: null,
                witnessParties: [party('Alice')],
                packageName: 'model-tests',
                offset,
                nodeId: 0,
              },
            },
          }],
          traceContext: null,
          recordTime: '2026-06-30T10:15:31Z',
          synchronizerId,
          paidTrafficCost: null,
        },
      },
    },
  };
}

export function topologyTransaction(offset: number): Record<string, unknown> {
  return {
    update: {
      TopologyTransaction: {
        value: {
          updateId: `1220${'d2'.repeat(32)}`,
          offset,
          synchronizerId,
          recordTime: '2026-06-30T10:15:32Z',
          events: [{
            event: {
              ParticipantAuthorizationAdded: {
                value: { partyId: party('Carol'), participantId: `PAR::p1::1220${'aa'.repeat(32)}`, participantPermission: 'PARTICIPANT_PERMISSION_SUBMISSION' },
              },
            },
          }],
          traceContext: null,
        },
      },
    },
  };
}

export function offsetCheckpoint(offset: number): Record<string, unknown> {
  return {
    update: {
      OffsetCheckpoint: {
        value: { offset, synchronizerTimes: [{ synchronizerId, recordTime: '2026-06-30T10:15:31.500Z' }] },
      },
    },
  };
}

/** One element of each known kind, offsets strictly increasing from `first`. */
export function mixedUpdates(first: number, count: number): Record<string, unknown>[] {
  const makers = [transaction, offsetCheckpoint, reassignment, transaction, topologyTransaction];
  const out: Record<string, unknown>[] = [];
  for (let i = 0; i < count; i++) out.push((makers[i % makers.length] as (o: number) => Record<string, unknown>)(first + 3 * i));
  return out;
}
