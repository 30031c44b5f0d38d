import { type OperatorFunction, mergeMap } from 'rxjs';
import type { ExercisedEvent } from '../../schemas/events.js';
import { DamlValueError } from '../daml-value-error.js';
import type { Choice } from '../runtime/choice.js';
import { qualifiedName, transactionEvents, type UpdateElementLike } from './transaction-events.js';
import { parseDamlValue } from '../runtime/daml-schemas.js';

/** An exercise of a choice, its argument (and result, when the event carries one) validated by the choice's schemas. */
export interface Exercised<A, R> {
  readonly contractId: string;
  readonly argument: A;
  /** The result; `undefined` when the event carries none. */
  readonly result: R | undefined;
  readonly event: ExercisedEvent;
}

/**
 * Turns update elements into the exercises of `choice` (`T.choices.X` of a template or an interface): every
 * `ExercisedEvent` (ledger-effects shape) of that choice name on the choice's template — or, for an interface
 * choice, through that interface (`interfaceId`, matched by module and entity) —, in event order. Argument
 * and result are checked with the choice's schemas; a mismatch errors the stream with a
 * {@link DamlValueError}. Completes and errors when the source does; pure, no state.
 */
export function exercisedOf<A, R>(choice: Choice<A, R>): OperatorFunction<UpdateElementLike, Exercised<A, R>> {
  const packageName = choice.templateId.startsWith('#') ? choice.templateId.slice(1, choice.templateId.indexOf(':')) : undefined;
  const name = qualifiedName(choice.templateId);
  const matches = (e: ExercisedEvent): boolean => {
    if (e.choice !== choice.name) return false;
    if (e.interfaceId !== undefined && e.interfaceId !== null) return qualifiedName(e.interfaceId) === name;
    return qualifiedName(e.templateId) === name && (packageName === undefined || e.packageName === packageName);
  };
  return mergeMap((element) => {
    const out: Exercised<A, R>[] = [];
    for (const event of transactionEvents(element).exercised) {
      if (!matches(event)) continue;
      const argument = parseDamlValue(choice.argument, event.choiceArgument);
      const result = event.exerciseResult === undefined ? undefined : parseDamlValue(choice.result, event.exerciseResult);
      const mismatch = (what: string, error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] }) =>
        new DamlValueError(what, { issues: error.issues.map((i) => ({ path: i.path, message: i.message })), templateId: event.templateId, contractId: event.contractId });
      if (!argument.success) throw mismatch('the choice argument', argument.error);
      if (result !== undefined && !result.success) throw mismatch('the exercise result', result.error);
      out.push({ contractId: event.contractId, argument: argument.data, result: result?.data, event });
    }
    return out;
  });
}
