/** A `CreateCommand` of the JSON Ledger API, as an element of `JsCommands.commands`: typed by the template's payload. */
export interface TypedCreateCommand<T> {
  readonly CreateCommand: {
    /** The template id in the package-name form `#<package-name>:<Module>:<Entity>`. */
    readonly templateId: string;
    readonly createArguments: T;
  };
}

/** An `ExerciseCommand` of the JSON Ledger API, as an element of `JsCommands.commands`: typed by the choice's argument. */
export interface TypedExerciseCommand<A> {
  readonly ExerciseCommand: {
    /** The template or interface id in the package-name form. */
    readonly templateId: string;
    readonly contractId: string;
    readonly choice: string;
    readonly choiceArgument: A;
  };
}
