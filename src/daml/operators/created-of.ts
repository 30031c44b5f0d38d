import { type OperatorFunction, mergeMap } from 'rxjs';
import type { CreatedEvent } from '../../schemas/events.js';
import { DamlValueError } from '../daml-value-error.js';
import type { Template, ChoiceMap } from '../runtime/template.js';
import type { ContractId } from '../runtime/daml-values.js';
import { qualifiedName, transactionEvents, type UpdateElementLike } from './transaction-events.js';
import { parseDamlValue } from '../runtime/daml-schemas.js';

/** A contract of template `T` created in a transaction, its payload validated by the template's schema. */
export interface Created<T> {
  readonly contractId: ContractId<T>;
  readonly payload: T;
  /** The event as the participant sent it. */
  readonly event: CreatedEvent;
}

/**
 * Turns update elements into the creates of `template`: for each `Transaction` element, one {@link Created}
 * per `CreatedEvent` of that template (matched by package name, module and entity, so every version of the
 * package matches), in event order; other updates and other templates emit nothing. The payload is checked
 * with `template.schema`: a mismatch errors the stream with a {@link DamlValueError} (code
 * `DAML_VALUE_MISMATCH`, with the field path). Completes and errors when the source does; pure, no state.
 */
export function createdOf<T, C extends ChoiceMap>(template: Template<T, C>): OperatorFunction<UpdateElementLike, Created<T>> {
  const name = `${template.moduleName}:${template.entityName}`;
  return mergeMap((element) => {
    const out: Created<T>[] = [];
    for (const event of transactionEvents(element).created) {
      if (event.packageName !== template.packageName || qualifiedName(event.templateId) !== name) continue;
      const parsed = parseDamlValue(template.schema, event.createArgument);
      if (!parsed.success) {
        throw new DamlValueError('the create argument', { issues: parsed.error.issues.map((i) => ({ path: i.path, message: i.message })), templateId: event.templateId, contractId: event.contractId });
      }
      out.push({ contractId: event.contractId as ContractId<T>, payload: parsed.data, event });
    }
    return out;
  });
}
