import type { DecodedEventFormat, DecodedFilters } from '../decode/decode-get-updates-request.js';
import type { TemplateCatalog } from '../ledger/template-catalog.js';

/** An interface filter after resolution: what to render for contracts implementing the interface. */
export interface CompiledInterfaceFilter {
  readonly view: boolean;
  readonly blob: boolean;
}

/**
 * The `Filters` of one party (or of any party), ready for matching. Template and interface filters are
 * keyed by `<packageName>|<Module:Entity>`, so they match every version of the named package.
 */
export interface CompiledFilters {
  /** A wildcard filter, or an empty `cumulative` list (which the server treats as a template wildcard). */
  readonly wildcard: boolean;
  readonly wildcardBlob: boolean;
  /** Template filters: key → include the created-event blob. */
  readonly templates: ReadonlyMap<string, boolean>;
  readonly interfaces: ReadonlyMap<string, CompiledInterfaceFilter>;
}

/** An `EventFormat` ready for matching. `verbose` changes nothing: JSON rendering is always label-full. */
export interface CompiledEventFormat {
  readonly byParty: ReadonlyMap<string, CompiledFilters>;
  readonly anyParty: CompiledFilters | undefined;
  /** True when `party` reads through this format (decides whether `commandId` is shown). */
  readonly reads: (party: string) => boolean;
}

/**
 * A reference split into its package name and qualified name: `#name:Mod:Ent`, or (3.4 only, checked
 * known before) `<packageId>:Mod:Ent`, which matches by the name of that package.
 */
function splitReference(id: string, catalog: TemplateCatalog): { packageName: string; qualifiedName: string } {
  const i = id.indexOf(':');
  const pkg = id.slice(0, i);
  return { packageName: pkg.startsWith('#') ? pkg.slice(1) : (catalog.packageNameOf(pkg) ?? pkg), qualifiedName: id.slice(i + 1) };
}

function compileFilters(filters: DecodedFilters, catalog: TemplateCatalog): CompiledFilters {
  let wildcard = false;
  let wildcardBlob = false;
  let specific = false;
  const templates = new Map<string, boolean>();
  const interfaces = new Map<string, CompiledInterfaceFilter>();
  for (const { identifierFilter: f } of filters.cumulative) {
    switch (f.kind) {
      case 'Empty':
        break;
      case 'WildcardFilter':
        wildcard = true;
        wildcardBlob ||= f.value.includeCreatedEventBlob;
        break;
      case 'TemplateFilter': {
        specific = true;
        const r = splitReference(f.value.templateId ?? '', catalog);
        const key = `${r.packageName}|${r.qualifiedName}`;
        templates.set(key, (templates.get(key) ?? false) || f.value.includeCreatedEventBlob);
        break;
      }
      case 'InterfaceFilter': {
        specific = true;
        const r = splitReference(f.value.interfaceId ?? '', catalog);
        const key = `${r.packageName}|${r.qualifiedName}`;
        const prev = interfaces.get(key);
        interfaces.set(key, {
          view: (prev?.view ?? false) || f.value.includeInterfaceView,
          blob: (prev?.blob ?? false) || f.value.includeCreatedEventBlob,
        });
        break;
      }
    }
  }
  // An empty cumulative list (or only `Empty` entries) means "all templates" (docs/server-behavior.md#updates-request).
  if (!wildcard && !specific) wildcard = true;
  return { wildcard, wildcardBlob, templates, interfaces };
}

/** Compiles a validated `EventFormat` (check its references first with `checkFilterReferences`). */
export function compileEventFormat(format: DecodedEventFormat, catalog: TemplateCatalog): CompiledEventFormat {
  const byParty = new Map<string, CompiledFilters>();
  for (const [party, filters] of Object.entries(format.filtersByParty)) byParty.set(party, compileFilters(filters, catalog));
  const anyParty = format.filtersForAnyParty ? compileFilters(format.filtersForAnyParty, catalog) : undefined;
  return { byParty, anyParty, reads: anyParty ? () => true : (party) => byParty.has(party) };
}

