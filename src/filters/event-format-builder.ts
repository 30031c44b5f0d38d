import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import type { CumulativeFilter, EventFormat, Filters } from '../schemas/filters.js';
import { checkPackageNameReference } from './check-package-name-reference.js';

/** Options of a template filter. */
export interface TemplateFilterOptions {
  /** Include `createdEventBlob` in created events (for disclosure). Default false. */
  readonly includeCreatedEventBlob?: boolean;
}

/** Options of an interface filter. */
export interface InterfaceFilterOptions {
  /** Include the interface view in created events. Default false. */
  readonly includeInterfaceView?: boolean;
  /** Include `createdEventBlob` in created events. Default false. */
  readonly includeCreatedEventBlob?: boolean;
}

/** The recorded choices of an {@link EventFormatBuilder}; immutable. */
export interface EventFormatSpec {
  readonly parties: readonly string[];
  readonly anyParty: boolean;
  readonly templates: readonly { readonly id: string; readonly options: TemplateFilterOptions }[];
  readonly interfaces: readonly { readonly id: string; readonly options: InterfaceFilterOptions }[];
  readonly wildcards: readonly TemplateFilterOptions[];
  readonly verbose: boolean;
}

const emptySpec: EventFormatSpec = { parties: [], anyParty: false, templates: [], interfaces: [], wildcards: [], verbose: false };

/**
 * An immutable builder of an `EventFormat`: which parties (or any party), which templates, interfaces or
 * wildcard, and `verbose`. Every method returns a new builder. The same filters apply to every listed
 * party and to the any-party filter.
 *
 * `build()` rejects contradictions with {@link InvalidArgumentError}: no party and no any-party filter, a
 * template or interface listed twice, a wildcard listed twice, and a filter that uses a package id instead
 * of a package name (the server rejects all of these). With no template, interface or wildcard, the format
 * matches every template (the server's default).
 */
export class EventFormatBuilder {
  protected readonly spec: EventFormatSpec;

  constructor(spec: EventFormatSpec = emptySpec) {
    this.spec = spec;
  }

  protected with(patch: Partial<EventFormatSpec>): this {
    const Ctor = this.constructor as new (spec: EventFormatSpec, ...rest: unknown[]) => this;
    return new Ctor({ ...this.spec, ...patch }, ...this.extraState());
  }

  /** State of subclasses that `with` must carry over. */
  protected extraState(): unknown[] {
    return [];
  }

  /** Reads updates as these parties (`filtersByParty`). Duplicates are ignored. */
  parties(...parties: string[]): this {
    return this.with({ parties: [...new Set([...this.spec.parties, ...parties])] });
  }

  /** Reads updates as every party hosted on the participant (`filtersForAnyParty`); needs `CanReadAsAnyParty`. */
  anyParty(): this {
    return this.with({ anyParty: true });
  }

  /** Adds a template filter; `templateId` is `#<package-name>:<Module>:<Entity>`. */
  template(templateId: string, options: TemplateFilterOptions = {}): this {
    return this.with({ templates: [...this.spec.templates, { id: templateId, options }] });
  }

  /** Adds an interface filter; `interfaceId` is `#<package-name>:<Module>:<Interface>`. */
  interface(interfaceId: string, options: InterfaceFilterOptions = {}): this {
    return this.with({ interfaces: [...this.spec.interfaces, { id: interfaceId, options }] });
  }

  /** Adds a wildcard filter (every template), optionally with created-event blobs. */
  wildcard(options: TemplateFilterOptions = {}): this {
    return this.with({ wildcards: [...this.spec.wildcards, options] });
  }

  /** Sets the `verbose` flag. */
  verbose(on = true): this {
    return this.with({ verbose: on });
  }

  /** The recorded choices, for inspection. */
  describe(): EventFormatSpec {
    return this.spec;
  }

  /** Builds the `EventFormat`; `field` names it in errors. */
  build(field = 'eventFormat'): EventFormat {
    const s = this.spec;
    if (s.parties.length === 0 && !s.anyParty) {
      throw new InvalidArgumentError(field, 'filtersByParty and filtersForAnyParty cannot be empty simultaneously: name a party or use anyParty()');
    }
    for (const p of s.parties) {
      if (p.trim() === '') throw new InvalidArgumentError(`${field}.filtersByParty`, 'a party id must not be empty');
    }
    if (s.wildcards.length > 1) throw new InvalidArgumentError(`${field}.cumulative`, 'a wildcard filter is listed twice');
    const seen = new Set<string>();
    for (const { id } of s.templates) {
      checkPackageNameReference(`${field}.cumulative.templateId`, id);
      if (seen.has(id)) throw new InvalidArgumentError(`${field}.cumulative.templateId`, `template ${id} is listed twice`);
      seen.add(id);
    }
    seen.clear();
    for (const { id } of s.interfaces) {
      checkPackageNameReference(`${field}.cumulative.interfaceId`, id);
      if (seen.has(id)) throw new InvalidArgumentError(`${field}.cumulative.interfaceId`, `interface ${id} is listed twice`);
      seen.add(id);
    }
    const cumulative: CumulativeFilter[] = [
      ...s.wildcards.map((w) => ({
        identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: w.includeCreatedEventBlob ?? false } } },
      })),
      ...s.templates.map(({ id, options }) => ({
        identifierFilter: { TemplateFilter: { value: { templateId: id, includeCreatedEventBlob: options.includeCreatedEventBlob ?? false } } },
      })),
      ...s.interfaces.map(({ id, options }) => ({
        identifierFilter: {
          InterfaceFilter: {
            value: {
              interfaceId: id,
              includeInterfaceView: options.includeInterfaceView ?? false,
              includeCreatedEventBlob: options.includeCreatedEventBlob ?? false,
            },
          },
        },
      })),
    ];
    const filters = (): Filters => ({ cumulative: cumulative.map((c) => structuredClone(c)) });
    return {
      filtersByParty: Object.fromEntries(s.parties.map((p) => [p, filters()])),
      ...(s.anyParty ? { filtersForAnyParty: filters() } : {}),
      verbose: s.verbose,
    };
  }
}
