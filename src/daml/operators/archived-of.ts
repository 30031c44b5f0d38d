import { type OperatorFunction, mergeMap } from 'rxjs';
import type { ArchivedEvent, ExercisedEvent } from '../../schemas/events.js';
import type { ChoiceMap, Template } from '../runtime/template.js';
import type { ContractId } from '../runtime/daml-values.js';
import { qualifiedName, transactionEvents, type UpdateElementLike } from './transaction-events.js';

/** A contract of template `T` that a transaction archived: an `ArchivedEvent`, or a consuming `ExercisedEvent` (ledger-effects shape). */
export interface Archived<T> {
  readonly contractId: ContractId<T>;
  readonly event: ArchivedEvent | ExercisedEvent;
}

/**
 * Turns update elements into the archives of `template`'s contracts, in event order: every `ArchivedEvent` of
 * the template and every consuming `ExercisedEvent` on one (package name, module and entity match). Other
 * updates emit nothing. Completes and errors when the source does; pure, no state.
 */
export function archivedOf<T, C extends ChoiceMap>(template: Template<T, C>): OperatorFunction<UpdateElementLike, Archived<T>> {
  const name = `${template.moduleName}:${template.entityName}`;
  const matches = (e: { packageName: string; templateId: string }): boolean => e.packageName === template.packageName && qualifiedName(e.templateId) === name;
  return mergeMap((element) => {
    const { archived, exercised } = transactionEvents(element);
    const out: Archived<T>[] = [];
    for (const event of archived) if (matches(event)) out.push({ contractId: event.contractId as ContractId<T>, event });
    for (const event of exercised) if (event.consuming && matches(event)) out.push({ contractId: event.contractId as ContractId<T>, event });
    if (archived.length > 0 && exercised.length > 0) out.sort((a, b) => a.event.nodeId - b.event.nodeId);
    return out;
  });
}
