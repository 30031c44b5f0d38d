import { of, type Observable } from 'rxjs';
import type { ActiveContractsSnapshotOptions, ActiveContractsSnapshotRequest, SnapshotSource } from '../../src/operators/index.js';
import type { JsGetActiveContractsResponse, JsGetUpdatesResponse } from '../../src/schemas/index.js';
import { fakeSource, type RecordedCall } from './fake-updates-source.js';

const sync = 'global::1220aa';

/** A snapshot entry: contract `id` active on the default synchronizer. */
export function activeEntry(id: string, offset = 1): JsGetActiveContractsResponse {
  return {
    workflowId: '',
    streamContinuationToken: `t-${id}`,
    contractEntry: { JsActiveContract: { createdEvent: { contractId: id, offset, nodeId: 0, templateId: 'p:M:T' }, synchronizerId: sync, reassignmentCounter: 0 } },
  } as unknown as JsGetActiveContractsResponse;
}

/** A transaction at `offset` creating the contracts `created` and archiving `archived` (ACS-delta shape). */
export function txWith(offset: number, created: readonly string[], archived: readonly string[] = []): JsGetUpdatesResponse {
  const events = [
    ...created.map((id) => ({ CreatedEvent: { contractId: id, offset, nodeId: 0, templateId: 'p:M:T' } })),
    ...archived.map((id) => ({ ArchivedEvent: { contractId: id, offset, nodeId: 1, templateId: 'p:M:T' } })),
  ];
  return { update: { Transaction: { value: { updateId: `u${offset}`, offset, synchronizerId: sync, recordTime: '2026-01-01T00:00:00Z', effectiveAt: '2026-01-01T00:00:00Z', events } } } } as unknown as JsGetUpdatesResponse;
}

/** One recorded `activeContracts` call. */
export interface SnapshotCall {
  readonly request: ActiveContractsSnapshotRequest;
  readonly options: ActiveContractsSnapshotOptions | undefined;
}

/**
 * A fake {@link SnapshotSource}: `activeContracts` reports `offset` (the request's, else `ledgerEnd`) through
 * `onActiveAtOffset` on subscription and returns `snapshot(call)`; `updates` answers from `pages` as
 * `fakeSource` does. Every call is recorded.
 */
export function fakeSnapshotSource(
  snapshot: (call: SnapshotCall) => Observable<JsGetActiveContractsResponse>,
  ledgerEnd: number,
  pages: ((call: RecordedCall, index: number) => Observable<JsGetUpdatesResponse>)[],
): SnapshotSource & { calls: RecordedCall[]; snapshots: SnapshotCall[] } {
  const updates = fakeSource(pages);
  const snapshots: SnapshotCall[] = [];
  return {
    calls: updates.calls,
    snapshots,
    updates: (request, options) => updates.updates(request, options),
    ledgerEnd: () => of({ offset: ledgerEnd }),
    activeContracts(request, options) {
      const call = { request, options };
      snapshots.push(call);
      options?.onActiveAtOffset?.(request.activeAtOffset ?? ledgerEnd);
      return snapshot(call);
    },
  };
}
