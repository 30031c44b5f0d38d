import { refName, type OasDocument, type OasSchema } from './openapi.js';

/** A sample is built with every property, or with the required ones only. */
export type SampleFields = 'all' | 'required';

/**
 * A JSON value shaped by an OpenAPI schema, as the server would send it: objects with their properties in
 * the spec's order, one item per array, one entry per map, integers as JSON numbers, the first enum value,
 * opaque JSON for untyped (Daml) values. At every `oneOf` it takes alternative `pick` modulo the number of
 * alternatives, so that samples for `pick = 0, 1, 2, …` cover every alternative of every variant. Deterministic.
 */
export function openapiSample(doc: OasDocument, schema: OasSchema, fields: SampleFields, pick: number, depth = 0): unknown {
  if (depth > 24) return {};
  if (schema.$ref) {
    return openapiSample(doc, doc.components.schemas[refName(schema.$ref)] ?? {}, fields, pick, depth + 1);
  }
  if (schema.oneOf && schema.oneOf.length > 0) {
    return openapiSample(doc, schema.oneOf[pick % schema.oneOf.length] as OasSchema, fields, pick, depth + 1);
  }
  switch (schema.type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      const required = new Set(schema.required ?? []);
      for (const [key, prop] of Object.entries(schema.properties ?? {})) {
        if (fields === 'all' || required.has(key)) out[key] = openapiSample(doc, prop, fields, pick, depth + 1);
      }
      if (typeof schema.additionalProperties === 'object') {
        out['k'] = openapiSample(doc, schema.additionalProperties, fields, pick, depth + 1);
      }
      return out;
    }
    case 'array':
      return schema.items ? [openapiSample(doc, schema.items, fields, pick, depth + 1)] : [];
    case 'integer':
      return 7;
    case 'number':
      return 1.5;
    case 'boolean':
      return true;
    case 'string':
      return schema.enum ? schema.enum[pick % schema.enum.length] : 'a';
    default:
      return { a: [1, 'x', null] };
  }
}

/** The largest number of alternatives of any `oneOf` in the document (how many picks cover them all). */
export function maxAlternatives(doc: OasDocument): number {
  let max = 1;
  for (const schema of Object.values(doc.components.schemas)) max = Math.max(max, schema.oneOf?.length ?? 1);
  return max;
}
