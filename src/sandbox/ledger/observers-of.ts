import type { TemplateInfo } from './template-catalog.js';

/**
 * The observers of a new contract, structurally (the sandbox has no Daml interpreter): the known parties
 * found as values of the template's `observerFields` in the create argument — a field holding a party
 * string or a list of party strings. Signatories are not repeated as observers.
 */
export function observersOf(template: TemplateInfo, argument: unknown, isKnownParty: (party: string) => boolean, signatories: readonly string[]): string[] {
  if (typeof argument !== 'object' || argument === null || Array.isArray(argument)) return [];
  const record = argument as Record<string, unknown>;
  const out: string[] = [];
  const add = (v: unknown) => {
    if (typeof v === 'string' && isKnownParty(v) && !signatories.includes(v) && !out.includes(v)) out.push(v);
  };
  for (const field of template.def.observerFields) {
    const v = record[field];
    if (Array.isArray(v)) v.forEach(add);
    else add(v);
  }
  return out;
}
