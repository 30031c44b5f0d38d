import { ErrorDefs } from '../errors/error-defs.js';
import { SandboxError } from '../errors/sandbox-error.js';
import type { DecodedEventFormat, DecodedFilters } from '../decode/decode-get-updates-request.js';
import type { TemplateCatalog } from '../ledger/template-catalog.js';

interface Reference {
  readonly kind: 'template' | 'interface';
  /** The package name of a `#name:Mod:Ent` reference; `undefined` for a package-id reference (3.4). */
  readonly packageName: string | undefined;
  /** The package id of a `<packageId>:Mod:Ent` reference (3.4 only: later lines reject it before). */
  readonly packageId: string | undefined;
  readonly qualifiedName: string;
}

function splitReference(kind: Reference['kind'], id: string): Reference {
  const i = id.indexOf(':');
  const pkg = id.slice(0, i);
  const byName = pkg.startsWith('#');
  return { kind, packageName: byName ? pkg.slice(1) : undefined, packageId: byName ? undefined : pkg, qualifiedName: id.slice(i + 1) };
}

function references(filters: DecodedFilters): Reference[] {
  const out: Reference[] = [];
  for (const { identifierFilter: f } of filters.cumulative) {
    if (f.kind === 'TemplateFilter' && f.value.templateId !== undefined) out.push(splitReference('template', f.value.templateId));
    if (f.kind === 'InterfaceFilter' && f.value.interfaceId !== undefined) out.push(splitReference('interface', f.value.interfaceId));
  }
  return out;
}

function allFilters(formats: readonly (DecodedEventFormat | undefined)[]): DecodedFilters[] {
  const out: DecodedFilters[] = [];
  for (const f of formats) {
    if (!f) continue;
    out.push(...Object.values(f.filtersByParty));
    if (f.filtersForAnyParty) out.push(f.filtersForAnyParty);
  }
  return out;
}

/**
 * The index service's checks of filter references (docs/server-behavior.md#updates-validation-order step 5), in its order: unknown
 * package names (`PACKAGE_NAMES_NOT_FOUND`), then known names without the template
 * (`NO_TEMPLATES_FOR_PACKAGE_NAME_AND_QUALIFIED_NAME`), then without the interface
 * (`NO_INTERFACE_FOR_PACKAGE_NAME_AND_QUALIFIED_NAME`); all 404. Causes list every offending reference.
 * Last, on 3.4 (which accepts package-id references), package-id references to templates or interfaces
 * that do not exist: `TEMPLATES_OR_INTERFACES_NOT_FOUND` (404; docs/participant-versions.md).
 */
export function checkFilterReferences(formats: readonly (DecodedEventFormat | undefined)[], catalog: TemplateCatalog): void {
  const all = allFilters(formats).flatMap(references);
  const refs = all.filter((r): r is Reference & { packageName: string } => r.packageName !== undefined);
  const pair = (r: Reference) => `(${r.packageName},${r.qualifiedName})`;
  const unknownNames = [...new Set(refs.filter((r) => catalog.packagesNamed(r.packageName).length === 0).map((r) => r.packageName))];
  if (unknownNames.length > 0) {
    throw SandboxError.grpc(
      ErrorDefs.PACKAGE_NAMES_NOT_FOUND,
      `The following package names do not match upgradable packages uploaded on this participant: [${unknownNames.join(', ')}].`,
    );
  }
  const templates = [...new Set(refs.filter((r) => r.kind === 'template' && !catalog.hasTemplateNamed(r.packageName, r.qualifiedName)).map(pair))];
  if (templates.length > 0) {
    throw SandboxError.grpc(
      ErrorDefs.NO_TEMPLATES_FOR_PACKAGE_NAME_AND_QUALIFIED_NAME,
      `The following package-name/template qualified-name pairs do not reference any template-id uploaded on this participant: [${templates.join(', ')}].`,
    );
  }
  const interfaces = [...new Set(refs.filter((r) => r.kind === 'interface' && !catalog.interfaceNamed(r.packageName, r.qualifiedName)).map(pair))];
  if (interfaces.length > 0) {
    throw SandboxError.grpc(
      ErrorDefs.NO_INTERFACE_FOR_PACKAGE_NAME_AND_QUALIFIED_NAME,
      `The following package-name/interface qualified-name pairs do not reference any interface-id uploaded on this participant: [${interfaces.join(', ')}].`,
    );
  }
  const unknownIds = all.filter(
    (r) => r.packageId !== undefined && (r.kind === 'template' ? catalog.template(r.packageId, r.qualifiedName) : catalog.interface(r.packageId, r.qualifiedName)) === undefined,
  );
  if (unknownIds.length > 0) {
    const ids = (kind: Reference['kind']) => [...new Set(unknownIds.filter((r) => r.kind === kind).map((r) => `${r.packageId}:${r.qualifiedName}`))];
    const templates = ids('template');
    const interfaces = ids('interface');
    const cause = `${templates.length > 0 ? `Templates do not exist: [${templates.join(', ')}]. ` : ''}${interfaces.length > 0 ? `Interfaces do not exist: [${interfaces.join(', ')}]. ` : ''}`.trim();
    throw SandboxError.grpc(ErrorDefs.TEMPLATES_OR_INTERFACES_NOT_FOUND, cause, {
      resources: [...templates.map((id) => ['TEMPLATE_ID', id] as const), ...interfaces.map((id) => ['INTERFACE_ID', id] as const)],
    });
  }
}
