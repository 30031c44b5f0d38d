import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { openapiPathOf, type SpecVersion } from './shared-dir.js';

/** A JSON Schema node of the OpenAPI document, loosely typed. */
export interface OasSchema {
  $ref?: string;
  type?: string;
  format?: string;
  title?: string;
  properties?: Record<string, OasSchema>;
  required?: string[];
  items?: OasSchema;
  oneOf?: OasSchema[];
  enum?: string[];
  additionalProperties?: OasSchema | boolean;
  [key: string]: unknown;
}

/** The OpenAPI document. */
export interface OasDocument {
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, OasSchema> };
}

const cached = new Map<SpecVersion | undefined, OasDocument>();

/**
 * Loads and caches ../shared/canton/openapi.yaml, or with `version` the spec of that release line
 * (`openapi-3.5.yaml`); throws when it is absent (callers skip first).
 */
export function loadOpenapi(version?: SpecVersion): OasDocument {
  let doc = cached.get(version);
  if (!doc) {
    const path = openapiPathOf(version);
    if (!path) throw new Error('openapi.yaml is not available');
    doc = parse(readFileSync(path, 'utf8')) as OasDocument;
    cached.set(version, doc);
  }
  return doc;
}

/** The component name a `$ref` points at. */
export function refName(ref: string): string {
  return ref.slice(ref.lastIndexOf('/') + 1);
}

function collectRefs(node: unknown, into: Set<string>): void {
  if (Array.isArray(node)) {
    for (const item of node) collectRefs(item, into);
  } else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') into.add(refName(value));
      else collectRefs(value, into);
    }
  }
}

/** The operations (method, path) whose components ledger-rx models. */
export const modelledOperations: ReadonlyArray<readonly [string, string]> = [
  ['post', '/v2/package-vetting/list'],
  ['post', '/v2/package-vetting'],
  ['post', '/v2/package-vetting/update'],
  ['post', '/v2/updates'],
  ['post', '/v2/updates/get-updates-page'],
  ['post', '/v2/commands/async/submit'],
  ['post', '/v2/commands/completions'],
  ['post', '/v2/commands/command-completions'],
  ['post', '/v2/state/active-contracts'],
  ['get', '/v2/state/active-contracts-page'],
  ['post', '/v2/commands/submit-and-wait-for-reassignment'],
  ['patch', '/v2/users/{user-id}'],
  ['patch', '/v2/users/{user-id}/rights'],
  ['get', '/v2/version'],
  ['get', '/v2/state/ledger-end'],
  ['get', '/v2/state/latest-pruned-offsets'],
  ['post', '/v2/parties'],
  ['get', '/v2/parties'],
  ['post', '/v2/users'],
  ['get', '/v2/users/{user-id}'],
  ['get', '/v2/users/{user-id}/rights'],
  ['post', '/v2/users/{user-id}/rights'],
  ['get', '/v2/packages'],
];

/** Every component reachable from the modelled operations. */
export function reachableComponents(doc: OasDocument): Set<string> {
  const roots = new Set<string>();
  for (const [method, path] of modelledOperations) collectRefs(doc.paths[path]?.[method], roots);
  const seen = new Set<string>();
  const stack = [...roots];
  while (stack.length > 0) {
    const name = stack.pop() as string;
    if (seen.has(name)) continue;
    seen.add(name);
    const refs = new Set<string>();
    collectRefs(doc.components.schemas[name], refs);
    for (const r of refs) if (!seen.has(r)) stack.push(r);
  }
  return seen;
}
