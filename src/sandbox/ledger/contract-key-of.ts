import { createHash } from 'node:crypto';
import type { TemplateInfo } from './template-catalog.js';

/**
 * The contract key of a template's contract, as JSON: the record of the template's `keyFields` taken
 * from `source` (a create argument, or the key given to ExerciseByKey), in the template's field order.
 * `json` is `undefined` for templates without a key; `missing` lists key fields absent from `source`.
 * Only the JSON is stored per contract; the hash is derived when rendered ({@link contractKeyHash}).
 */
export function contractKeyOf(template: TemplateInfo, source: unknown): { json: string | undefined; missing: readonly string[] } {
  const fields = template.def.keyFields;
  if (!fields || fields.length === 0) return { json: undefined, missing: [] };
  const record = typeof source === 'object' && source !== null && !Array.isArray(source) ? (source as Record<string, unknown>) : {};
  const missing = fields.filter((f) => !Object.prototype.hasOwnProperty.call(record, f));
  const value: Record<string, unknown> = {};
  for (const f of fields) value[f] = record[f] ?? null;
  return { json: JSON.stringify(value), missing };
}

/** The `contractKeyHash` the sandbox prints for a key: base64 of a SHA-256 over the template and key. */
export function contractKeyHash(template: TemplateInfo, keyJson: string): string {
  return createHash('sha256').update(`${template.filterKey}|${keyJson}`).digest('base64');
}
