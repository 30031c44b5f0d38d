import type { InterfaceDef, PackageDef, PackageStore, TemplateDef } from '../state/package-store.js';
import { compareVersions } from '../state/package-store.js';

/** An interface of an uploaded package, with its ids precomputed. */
export interface InterfaceInfo {
  readonly packageId: string;
  readonly packageName: string;
  readonly qualifiedName: string;
  /** `<packageId>:<Module>:<Entity>`. */
  readonly interfaceId: string;
  /** `<packageName>|<Module>:<Entity>`: what an interface filter matches on. */
  readonly filterKey: string;
  readonly def: InterfaceDef;
}

/** A template of an uploaded package, with its ids and implemented interfaces precomputed. */
export interface TemplateInfo {
  readonly packageId: string;
  readonly packageName: string;
  readonly packageVersion: string;
  readonly qualifiedName: string;
  /** `<packageId>:<Module>:<Entity>`: the form the server always prints. */
  readonly templateId: string;
  /** `templateId` and `packageName` as JSON string literals, for rendering. */
  readonly templateIdJson: string;
  readonly packageNameJson: string;
  /** `<packageName>|<Module>:<Entity>`: what a template filter matches on (any version of the package). */
  readonly filterKey: string;
  readonly def: TemplateDef;
  /** The interfaces it implements, resolved in its own package or a dependency. */
  readonly interfaces: readonly InterfaceInfo[];
}

/**
 * Resolves templates and interfaces of the participant's package store, caching the precomputed
 * {@link TemplateInfo}/{@link InterfaceInfo} per package (packages are immutable once uploaded, so the
 * cache never goes stale; packages uploaded later are picked up on first use).
 */
export class TemplateCatalog {
  private readonly store: PackageStore;
  private readonly templates = new Map<string, TemplateInfo | null>();
  private readonly interfaces = new Map<string, InterfaceInfo | null>();

  constructor(store: PackageStore) {
    this.store = store;
  }

  /** The template `qualifiedName` (`Module:Entity`) of package `packageId`. */
  template(packageId: string, qualifiedName: string): TemplateInfo | undefined {
    const key = `${packageId}:${qualifiedName}`;
    let info = this.templates.get(key);
    if (info === undefined) {
      const pkg = this.store.get(packageId);
      const def = pkg?.templates.find((t) => `${t.module}:${t.entity}` === qualifiedName);
      info = pkg && def ? this.buildTemplate(pkg, def) : null;
      this.templates.set(key, info);
    }
    return info ?? undefined;
  }

  /** The interface `qualifiedName` of package `packageId`. */
  interface(packageId: string, qualifiedName: string): InterfaceInfo | undefined {
    const key = `${packageId}:${qualifiedName}`;
    let info = this.interfaces.get(key);
    if (info === undefined) {
      const pkg = this.store.get(packageId);
      const def = pkg?.interfaces.find((i) => `${i.module}:${i.entity}` === qualifiedName);
      info = pkg && def ? interfaceInfo(pkg, def) : null;
      this.interfaces.set(key, info);
    }
    return info ?? undefined;
  }

  /** The name of the package `packageId`, or `undefined` when no such package was uploaded. */
  packageNameOf(packageId: string): string | undefined {
    return this.store.get(packageId)?.name;
  }

  /** Packages named `name`, newest version first. */
  packagesNamed(name: string): PackageDef[] {
    return this.store.byName(name).sort((a, b) => compareVersions(b.version, a.version));
  }

  /** True when some package of this name defines the template `qualifiedName`. */
  hasTemplateNamed(packageName: string, qualifiedName: string): boolean {
    return this.packagesNamed(packageName).some((p) => this.template(p.packageId, qualifiedName) !== undefined);
  }

  /** The newest interface `qualifiedName` among the packages named `packageName`. */
  interfaceNamed(packageName: string, qualifiedName: string): InterfaceInfo | undefined {
    for (const p of this.packagesNamed(packageName)) {
      const i = this.interface(p.packageId, qualifiedName);
      if (i) return i;
    }
    return undefined;
  }

  private buildTemplate(pkg: PackageDef, def: TemplateDef): TemplateInfo {
    const qualifiedName = `${def.module}:${def.entity}`;
    const templateId = `${pkg.packageId}:${qualifiedName}`;
    const interfaces: InterfaceInfo[] = [];
    for (const iface of def.implements) {
      for (const candidate of [pkg.packageId, ...this.store.dependencyClosure(pkg.packageId)]) {
        const found = this.interface(candidate, iface);
        if (found) {
          interfaces.push(found);
          break;
        }
      }
    }
    return {
      packageId: pkg.packageId,
      packageName: pkg.name,
      packageVersion: pkg.version,
      qualifiedName,
      templateId,
      templateIdJson: JSON.stringify(templateId),
      packageNameJson: JSON.stringify(pkg.name),
      filterKey: `${pkg.name}|${qualifiedName}`,
      def,
      interfaces,
    };
  }
}

function interfaceInfo(pkg: PackageDef, def: InterfaceDef): InterfaceInfo {
  const qualifiedName = `${def.module}:${def.entity}`;
  return {
    packageId: pkg.packageId,
    packageName: pkg.name,
    qualifiedName,
    interfaceId: `${pkg.packageId}:${qualifiedName}`,
    filterKey: `${pkg.name}|${qualifiedName}`,
    def,
  };
}
