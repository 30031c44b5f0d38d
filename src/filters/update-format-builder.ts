import type { UpdateFormat } from '../schemas/filters.js';
import { EventFormatBuilder } from './event-format-builder.js';
import { TransactionFormatBuilder } from './transaction-format-builder.js';

interface UpdateFormatState {
  readonly transactions?: TransactionFormatBuilder;
  readonly reassignments?: EventFormatBuilder;
  readonly topologyParties?: readonly string[];
}

/**
 * An immutable builder of an `UpdateFormat`: which transactions, reassignments and topology events a
 * `POST /v2/updates` read returns. Every method returns a new builder; `build()` validates and produces
 * the wire object, throwing {@link InvalidArgumentError} on contradictions (see {@link EventFormatBuilder}).
 *
 * ## Example
 * ```ts
 * const format = updateFormat()
 *   .transactions((t) => t.parties(alice).template('#my-model:Iou:Iou').shape('ledger-effects'))
 *   .reassignments((r) => r.parties(alice))
 *   .topologyEvents([alice])
 *   .build();
 * ```
 */
export class UpdateFormatBuilder {
  private readonly state: UpdateFormatState;

  constructor(state: UpdateFormatState = {}) {
    this.state = state;
  }

  /** Includes transactions, configured by `configure` (parties, filters, shape, verbose). */
  transactions(configure: (t: TransactionFormatBuilder) => TransactionFormatBuilder): UpdateFormatBuilder {
    return new UpdateFormatBuilder({ ...this.state, transactions: configure(new TransactionFormatBuilder()) });
  }

  /** Includes reassignments (always in the ACS-delta shape), configured by `configure`. */
  reassignments(configure: (r: EventFormatBuilder) => EventFormatBuilder): UpdateFormatBuilder {
    return new UpdateFormatBuilder({ ...this.state, reassignments: configure(new EventFormatBuilder()) });
  }

  /** Includes participant authorization topology events for `parties`; an empty list means every party. */
  topologyEvents(parties: readonly string[] = []): UpdateFormatBuilder {
    return new UpdateFormatBuilder({ ...this.state, topologyParties: [...new Set(parties)] });
  }

  /**
   * Builds the `UpdateFormat`. A format with none of the three parts is valid: an open-ended read then
   * carries only offset checkpoints.
   */
  build(): UpdateFormat {
    const { transactions, reassignments, topologyParties } = this.state;
    return {
      ...(transactions ? { includeTransactions: transactions.buildTransactionFormat('updateFormat.includeTransactions') } : {}),
      ...(reassignments ? { includeReassignments: reassignments.build('updateFormat.includeReassignments') } : {}),
      ...(topologyParties
        ? { includeTopologyEvents: { includeParticipantAuthorizationEvents: { parties: [...topologyParties] } } }
        : {}),
    };
  }
}

/** Starts an {@link UpdateFormatBuilder}. */
export function updateFormat(): UpdateFormatBuilder {
  return new UpdateFormatBuilder();
}
