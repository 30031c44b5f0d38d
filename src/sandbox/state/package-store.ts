import { hex64 } from './ids.js';
import type { LfDataType, LfType } from './lf-type.js';

/** A choice of a template or interface. Exercising a consuming choice archives the contract. */
export interface ChoiceDef {
  readonly consuming: boolean;
  /**
   * The argument's type, for a choice read from an uploaded DAR: the argument is type-checked against it, and
   * only `Archive` runs (the sandbox has no Daml engine: docs/sandbox.md#typed-creates).
   */
  readonly argument?: LfType;
}

/** A template: `module` is the dotted module path, `entity` the template name. */
export interface TemplateDef {
  readonly module: string;
  readonly entity: string;
  readonly choices: Readonly<Record<string, ChoiceDef>>;
  /** Qualified names (`Module:Entity`) of the interfaces it implements, in this or a dependency package's name. */
  readonly implements: readonly string[];
  /** Create-argument fields that form the contract key, if the template has one. */
  readonly keyFields?: readonly string[];
  /**
   * For a template read from an uploaded DAR: its payload record (`Module:Entity` of its package), against which
   * create arguments are type-checked (docs/sandbox.md#typed-creates). The built-in demo templates have none.
   */
  readonly payload?: { readonly packageId: string; readonly qualifiedName: string };
}

/** An interface: its view is the create-argument fields listed in `viewFields`. */
export interface InterfaceDef {
  readonly module: string;
  readonly entity: string;
  readonly choices: Readonly<Record<string, ChoiceDef>>;
  readonly viewFields: readonly string[];
  /**
   * For an interface read from an uploaded DAR: its view type. Its view is computed by Daml code, which the
   * sandbox does not run, so `viewFields` is unused and views are reported as failed (docs/sandbox.md#typed-creates).
   */
  readonly view?: LfType;
}

/** A Daml package in the participant's package store. */
export interface PackageDef {
  readonly packageId: string;
  readonly name: string;
  readonly version: string;
  /** Package ids this package depends on. */
  readonly dependencies: readonly string[];
  readonly templates: readonly TemplateDef[];
  readonly interfaces: readonly InterfaceDef[];
  /**
   * A utility package (no template, interface, exception or serializable data type): upgrade checks ignore
   * it, so several with one name and version may be vetted together (docs/sandbox.md#dar-uploads).
   */
  readonly utility?: boolean;
  /** For a package uploaded from a DAR: its `ArchivePayload` bytes, whose SHA-256 is `packageId`. */
  readonly payload?: Uint8Array;
  /** For a package uploaded from a DAR: its data types by qualified name (`Module:Name`). */
  readonly dataTypes?: ReadonlyMap<string, LfDataType>;
}

/** The package id of `name` at `version`: a stable 64-hex digest. */
export function packageIdOf(name: string, version: string): string {
  return hex64(`package:${name}:${version}`);
}

function pkg(name: string, version: string, dependencies: readonly PackageDef[], templates: TemplateDef[], interfaces: InterfaceDef[] = []): PackageDef {
  return { packageId: packageIdOf(name, version), name, version, dependencies: dependencies.map((d) => d.packageId), templates, interfaces };
}

const archive = { Archive: { consuming: true } } as const;

/**
 * The demo package set every sandbox starts with:
 * - `daml-prim` and `daml-stdlib` (dependencies, no templates);
 * - `ledger-rx-demo` 1.0.0 and its upgrade 1.1.0: templates `Iou:Iou` (argument `{issuer, owner,
 *   currency, amount, observers}`; choices `Transfer` consuming, `Iou_Observe` non-consuming),
 *   `Asset:Asset` (keyed by `issuer` and `symbol`), and the interface `Holding:Holding` (view: `owner`,
 *   `amount`) that both implement;
 * - `ledger-rx-finance` 1.0.0, which depends on `ledger-rx-demo` 1.0.0 (`Settlement:Settlement`);
 * - `ledger-rx-extras` 0.1.0, uploaded but not vetted, for vetting scenarios.
 */
export function demoPackages(): PackageDef[] {
  const prim: PackageDef = { ...pkg('daml-prim', '0.0.0', [], []), utility: true };
  const stdlib: PackageDef = { ...pkg('daml-stdlib', '3.4.0', [prim], []), utility: true };
  const holding: InterfaceDef = { module: 'Holding', entity: 'Holding', choices: { Holding_Lock: { consuming: false } }, viewFields: ['owner', 'amount'] };
  const iou = (extra: Record<string, ChoiceDef> = {}): TemplateDef => ({
    module: 'Iou',
    entity: 'Iou',
    choices: { ...archive, Transfer: { consuming: true }, Iou_Observe: { consuming: false }, ...extra },
    implements: ['Holding:Holding'],
  });
  const asset: TemplateDef = {
    module: 'Asset',
    entity: 'Asset',
    choices: { ...archive, Give: { consuming: true } },
    implements: ['Holding:Holding'],
    keyFields: ['issuer', 'symbol'],
  };
  const demo1 = pkg('ledger-rx-demo', '1.0.0', [prim, stdlib], [iou(), asset], [holding]);
  const demo11 = pkg('ledger-rx-demo', '1.1.0', [prim, stdlib], [iou({ Iou_Split: { consuming: true } }), asset], [holding]);
  const finance = pkg('ledger-rx-finance', '1.0.0', [prim, stdlib, demo1], [
    { module: 'Settlement', entity: 'Settlement', choices: { ...archive, Settle: { consuming: true } }, implements: [] },
  ]);
  const extras = pkg('ledger-rx-extras', '0.1.0', [prim, stdlib], [
    { module: 'Note', entity: 'Note', choices: { ...archive }, implements: [] },
  ]);
  return [prim, stdlib, demo1, demo11, finance, extras];
}

/** The participant's package store (uploaded packages). */
export class PackageStore {
  private readonly byId = new Map<string, PackageDef>();

  constructor(packages: readonly PackageDef[] = demoPackages()) {
    for (const p of packages) this.byId.set(p.packageId, p);
  }

  add(p: PackageDef): void {
    this.byId.set(p.packageId, p);
  }

  get(packageId: string): PackageDef | undefined {
    return this.byId.get(packageId);
  }

  all(): PackageDef[] {
    return [...this.byId.values()];
  }

  /** Packages with this name, oldest version first. */
  byName(name: string): PackageDef[] {
    return this.all()
      .filter((p) => p.name === name)
      .sort((a, b) => compareVersions(a.version, b.version));
  }

  /** Transitive dependencies of `packageId` (not including itself). */
  dependencyClosure(packageId: string): string[] {
    const seen = new Set<string>();
    const stack = [...(this.get(packageId)?.dependencies ?? [])];
    while (stack.length > 0) {
      const id = stack.pop() as string;
      if (seen.has(id)) continue;
      seen.add(id);
      stack.push(...(this.get(id)?.dependencies ?? []));
    }
    return [...seen];
  }
}

/** Compares dotted numeric versions (`1.10.0` > `1.9.3`). */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}
