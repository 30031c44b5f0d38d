import type { z } from 'zod';
import { built } from './lazy-schema.js';

/**
 * The built zod object behind an object schema of the wire model, for code of this library that derives a
 * schema from it (`.omit`, `.partial`, `.shape`). The wire model's schemas are typed as validators of their
 * named types (`z.ZodType<JsGetUpdatesPageResponse>`, see `wireSchema`), which hides the object methods;
 * this gives them back, untyped: the caller states the type of what it derives.
 *
 * @throws TypeError when `schema` is not an object schema (a variant, a record, a primitive).
 */
export function wireObject(schema: z.ZodType<object>): z.ZodObject {
  const object = built(schema) as unknown as z.ZodObject;
  if (typeof object.omit !== 'function' || typeof object.shape !== 'object') {
    throw new TypeError('wireObject: not an object schema');
  }
  return object;
}
