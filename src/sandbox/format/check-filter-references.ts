import { ErrorDefs } from '../errors/error-defs.js';
import { SandboxError } from '../errors/sandbox-error.js';
import type { DecodedEventFormat, DecodedFilters } from '../decode/decode-get-updates-request.js';
import type { TemplateCatalog } from '../ledger/template-catalog.js';

interface Reference {
  readonly kind: 'template' | 'interface';
  readonly packageName: string;
  readonly qualifiedName: string;
}

function splitReference(kind: Reference['kind'], id: string): Reference {
  const i = id.indexOf(':');
  return { kind, packageName: id.slice(1, i), qualifiedName: id.slice(i + 1) };
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
 */
export function checkFilterReferences(formats: readonly (DecodedEventFormat | undefined)[], catalog: TemplateCatalog): void {
  const refs = allFilters(formats).flatMap(references);
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
}

