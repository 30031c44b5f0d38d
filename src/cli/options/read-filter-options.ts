import type { Shape } from '../../filters/transaction-format-builder.js';
import type { FilterOptions } from './filter-options.js';

/** Turns the commander values of the flags added by `addFilterOptions` into {@link FilterOptions}. */
export function readFilterOptions(values: Readonly<Record<string, unknown>>): FilterOptions {
  const list = (key: string): string[] => (Array.isArray(values[key]) ? (values[key] as unknown[]).map(String) : []);
  return {
    parties: list('party'),
    anyParty: values['anyParty'] === true,
    templates: list('template'),
    interfaces: list('interface'),
    shape: values['shape'] === 'ledger-effects' ? 'ledger-effects' : ('acs-delta' satisfies Shape),
    reassignments: values['reassignments'] === true,
    topology: values['topology'] === true,
    verbose: values['verbose'] === true,
  };
}
