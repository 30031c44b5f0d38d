import type { CompiledEventFormat, CompiledFilters } from './compile-event-format.js';
import type { InterfaceInfo, TemplateInfo } from '../ledger/template-catalog.js';

/** How an event passes an event format. */
export interface EventMatch {
  /** The `witnessParties` to print: the requesting parties among the event's witnesses. */
  readonly parties: readonly string[];
  /** Include `createdEventBlob`. */
  readonly blob: boolean;
  /** Interfaces whose views to include (interface filters with `includeInterfaceView`). */
  readonly views: readonly InterfaceInfo[];
}

const noViews: readonly InterfaceInfo[] = [];

interface FilterMatch {
  blob: boolean;
  views: InterfaceInfo[] | undefined;
}

function matchFilters(f: CompiledFilters, template: TemplateInfo, into: FilterMatch): boolean {
  let matched = false;
  if (f.wildcard) {
    matched = true;
    if (f.wildcardBlob) into.blob = true;
  }
  if (f.templates.size > 0) {
    const blob = f.templates.get(template.filterKey);
    if (blob !== undefined) {
      matched = true;
      if (blob) into.blob = true;
    }
  }
  if (f.interfaces.size > 0) {
    for (const iface of template.interfaces) {
      const i = f.interfaces.get(iface.filterKey);
      if (!i) continue;
      matched = true;
      if (i.blob) into.blob = true;
      if (i.view && !(into.views ?? noViews).includes(iface)) (into.views ??= []).push(iface);
    }
  }
  return matched;
}

/**
 * Matches an event of a contract of `template`, witnessed by `witnesses` (the hosted parties entitled to
 * see it under the shape at hand: stakeholders for ACS deltas and reassignments, witnesses for ledger
 * effects), against an event format. A party sees it when its own filters or the any-party filters
 * match; with a matching any-party filter every witness is listed. `undefined` when nobody sees it.
 */
export function matchEvent(format: CompiledEventFormat, witnesses: readonly string[], template: TemplateInfo): EventMatch | undefined {
  if (witnesses.length === 0) return undefined;
  const acc: FilterMatch = { blob: false, views: undefined };
  const any = format.anyParty !== undefined && matchFilters(format.anyParty, template, acc);
  let parties: string[] | undefined;
  if (format.byParty.size > 0) {
    for (const w of witnesses) {
      const f = format.byParty.get(w);
      if (f && matchFilters(f, template, acc)) (parties ??= []).push(w);
    }
  }
  if (!any && parties === undefined) return undefined;
  // every witness reads: the witnesses' own (shared) array, whose JSON the renderers have cached
  const shown = any || (parties as string[]).length === witnesses.length ? witnesses : (parties as string[]);
  return { parties: shown, blob: acc.blob, views: acc.views ?? noViews };
}
