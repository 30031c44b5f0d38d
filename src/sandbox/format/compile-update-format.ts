import { checkFilterReferences } from './check-filter-references.js';
import { compileEventFormat, type CompiledEventFormat } from './compile-event-format.js';
import type { DecodedUpdateFormat } from '../decode/decode-get-updates-request.js';
import type { TemplateCatalog } from '../ledger/template-catalog.js';

/** An `UpdateFormat` ready for serving. */
export interface CompiledUpdateFormat {
  readonly transactions: { readonly shape: 'acs-delta' | 'ledger-effects'; readonly events: CompiledEventFormat } | undefined;
  readonly reassignments: CompiledEventFormat | undefined;
  /** Parties whose participant-authorization events to include, or `any` party. */
  readonly topology: ReadonlySet<string> | 'any' | undefined;
}

/** Compiles a validated `UpdateFormat`; checks its template and interface references first. */
export function compileUpdateFormat(format: DecodedUpdateFormat, catalog: TemplateCatalog): CompiledUpdateFormat {
  const tx = format.includeTransactions;
  checkFilterReferences([tx?.eventFormat, format.includeReassignments], catalog);
  const topology = format.includeTopologyEvents?.includeParticipantAuthorizationEvents;
  return {
    transactions:
      tx?.eventFormat === undefined
        ? undefined
        : { shape: tx.transactionShape === 'TRANSACTION_SHAPE_LEDGER_EFFECTS' ? 'ledger-effects' : 'acs-delta', events: compileEventFormat(tx.eventFormat, catalog) },
    reassignments: format.includeReassignments ? compileEventFormat(format.includeReassignments, catalog) : undefined,
    topology: topology === undefined ? undefined : topology.parties.length === 0 ? 'any' : new Set(topology.parties),
  };
}
