import type { CheckpointSnapshot, Ledger } from '../ledger/ledger.js';
import type { CompiledUpdateFormat } from '../format/compile-update-format.js';
import { formatInstant } from './format-instant.js';
import { checkpointJson } from './checkpoint-json.js';
import { jsonPieces, type TextCuts } from './json-pieces.js';
import { renderReassignmentJson } from './render-reassignment-json.js';
import { renderTransactionJson } from './render-transaction-json.js';
import type { TopologyRecord, UpdateRecord } from '../ledger/update-record.js';

/**
 * Renders ledger records as the JSON the server sends (docs/server-behavior.md#update-element-shapes), for one request's update
 * format. Every field is present, absent optionals are `null`, int64 values are JSON numbers, timestamps
 * are ISO instants. Output is concatenated from precomputed pieces (template ids, argument JSON), which is
 * what makes reading a million seeded updates fast.
 */
export interface UpdateRenderer {
  /** One `JsGetUpdatesResponse` element, or `undefined` when the format filters the update out entirely. */
  render(update: UpdateRecord): string | undefined;
  /** The `OffsetCheckpoint` element of a checkpoint snapshot. */
  checkpoint(snapshot: CheckpointSnapshot): string;
  /**
   * The {@link TextCuts} of `text` when it is the element `render` returned last (compared by value, so
   * never the cuts of another text), else `undefined`. Valid until the next `render`.
   */
  textCuts(text: string): readonly number[] | undefined;
}

const transactionPrefix = '{"update":{"Transaction":{"value":';

function topologyJson(ledger: Ledger, t: TopologyRecord): string {
  return (
    `{"updateId":"${ledger.ids.updateId(t.offset)}","offset":${t.offset},"synchronizerId":${jsonPieces.syncIdJson(ledger, t.synchronizer)},` +
    `"recordTime":"${formatInstant(t.recordTimeMs)}","events":[{"event":{"ParticipantAuthorizationAdded":{"value":{` +
    `"partyId":${JSON.stringify(t.party)},"participantId":${JSON.stringify(t.participantId)},"participantPermission":"${t.permission}"}}}}],` +
    `"traceContext":null}`
  );
}

/** Builds the renderer of `format` over `ledger`. */
export function createUpdateRenderer(ledger: Ledger, format: CompiledUpdateFormat): UpdateRenderer {
  const cuts: TextCuts = [];
  let last: string | undefined;
  return {
    render(update) {
      cuts.length = 0;
      last = undefined;
      switch (update.kind) {
        case 'transaction': {
          const tf = format.transactions;
          if (!tf) return undefined;
          const value = renderTransactionJson(ledger, update, tf.shape, tf.events, cuts, transactionPrefix.length);
          if (value === undefined) return undefined;
          last = `${transactionPrefix}${value}}}}`;
          return last;
        }
        case 'reassignment': {
          if (!format.reassignments) return undefined;
          const value = renderReassignmentJson(ledger, update, format.reassignments, { keepEmpty: false, submitterView: false });
          return value === undefined ? undefined : `{"update":{"Reassignment":{"value":${value}}}}`;
        }
        case 'topology': {
          const f = format.topology;
          if (f === undefined || (f !== 'any' && !f.has(update.party))) return undefined;
          return `{"update":{"TopologyTransaction":{"value":${topologyJson(ledger, update)}}}}`;
        }
      }
    },
    checkpoint(snapshot) {
      return `{"update":{"OffsetCheckpoint":{"value":${checkpointJson(ledger, snapshot)}}}}`;
    },
    textCuts(text) {
      return last !== undefined && cuts.length > 0 && text === last ? cuts : undefined;
    },
  };
}
