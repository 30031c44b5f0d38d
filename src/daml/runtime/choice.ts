import type { Schema } from './daml-schemas.js';

/** A choice of a template or an interface: its name, whether it archives the contract, and the schemas of its argument and result. */
export interface Choice<A, R> {
  readonly name: string;
  /** Whether exercising the choice archives the contract. */
  readonly consuming: boolean;
  /** The id (package-name form) of the template or interface that declares the choice. */
  readonly templateId: string;
  /** The argument, as the participant writes it in `ExercisedEvent.choiceArgument`. */
  readonly argument: Schema<A>;
  /** The result, as in `ExercisedEvent.exerciseResult`. */
  readonly result: Schema<R>;
}

/** The argument type of a {@link Choice}. */
export type ChoiceArgument<C> = C extends Choice<infer A, unknown> ? A : never;
/** The result type of a {@link Choice}. */
export type ChoiceResult<C> = C extends Choice<unknown, infer R> ? R : never;

/** Declares a choice (used by generated code). */
export function choice<A, R>(definition: Choice<A, R>): Choice<A, R> {
  return Object.freeze({ ...definition });
}
