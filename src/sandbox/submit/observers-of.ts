/**
 * The observers of a new contract, structurally (the sandbox has no Daml interpreter and no Daml types):
 * every known party that appears as a string value anywhere in the create argument — in record fields,
 * list elements, optionals, variant payloads and map values (not map keys), at any depth — except the
 * signatories, each once, in order of first appearance (a depth-first walk in the argument's property
 * order as parsed: for an object that is JSON order, except that integer-like keys come first).
 *
 * @param argument - the create argument (a JSON value).
 * @param isKnownParty - true for the parties the participant knows.
 * @param signatories - the contract's signatories, never repeated as observers.
 */
export function observersOf(argument: unknown, isKnownParty: (party: string) => boolean, signatories: readonly string[]): string[] {
  const out: string[] = [];
  const visit = (v: unknown): void => {
    if (typeof v === 'string') {
      if (isKnownParty(v) && !signatories.includes(v) && !out.includes(v)) out.push(v);
    } else if (Array.isArray(v)) {
      for (const x of v) visit(x);
    } else if (typeof v === 'object' && v !== null) {
      for (const x of Object.values(v)) visit(x);
    }
  };
  visit(argument);
  return out;
}
