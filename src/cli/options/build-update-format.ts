import { InvalidArgumentError } from '../../errors/invalid-argument-error.js';
import type { EventFormatBuilder } from '../../filters/event-format-builder.js';
import { updateFormat } from '../../filters/update-format-builder.js';
import type { UpdateFormat } from '../../schemas/filters.js';
import type { FilterOptions } from './filter-options.js';
import { UsageError } from './usage-error.js';

/**
 * Builds the `UpdateFormat` of the filter flags with the `updateFormat()` builder: transactions in
 * `shape` (default `acs-delta`) for `parties`, or for every party when none is given or `anyParty` is set;
 * `templates`/`interfaces` (interfaces with their views) narrow transactions and reassignments;
 * `reassignments` and `topology` add those kinds (topology for the same parties, or all of them).
 * The builder's `InvalidArgumentError` (a package id instead of a package name, a template listed twice,
 * ...) is rethrown as a {@link UsageError} naming the flag.
 */
export function buildUpdateFormat(filter: FilterOptions): UpdateFormat {
  const parties = [...(filter.parties ?? [])];
  const anyParty = filter.anyParty === true || parties.length === 0;
  const configure = <B extends EventFormatBuilder>(builder: B): B => {
    let b = parties.length > 0 ? builder.parties(...parties) : builder;
    if (anyParty) b = b.anyParty();
    for (const t of filter.templates ?? []) b = b.template(t);
    for (const i of filter.interfaces ?? []) b = b.interface(i, { includeInterfaceView: true });
    if (filter.verbose) b = b.verbose();
    return b;
  };
  let format = updateFormat().transactions((t) => configure(t).shape(filter.shape ?? 'acs-delta'));
  if (filter.reassignments) format = format.reassignments((r) => configure(r));
  if (filter.topology) format = format.topologyEvents(anyParty ? [] : parties);
  try {
    return format.build();
  } catch (error) {
    if (error instanceof InvalidArgumentError) throw new UsageError(`invalid filter: ${flagOf(error.field)}: ${error.rule}`);
    throw error;
  }
}

function flagOf(field: string): string {
  if (field.includes('templateId')) return '--template';
  if (field.includes('interfaceId')) return '--interface';
  if (field.includes('filtersByParty')) return '--party';
  return field;
}
