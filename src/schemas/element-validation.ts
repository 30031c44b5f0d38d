import type { z } from 'zod';
import { built } from './lazy-schema.js';
import { compilePassThroughCheck, type PassThroughCheck } from './pass-through-check.js';

/** What validating one kind of stream element uses. */
export interface ElementValidation<T> {
  /** The built schema (it decides, and gives the errors). */
  readonly schema: z.ZodType<T>;
  /** True for an element the schema would accept and give back unchanged: then the element is its own result. */
  readonly passesUnchanged: PassThroughCheck;
}

/**
 * The validation of `schema`'s elements, made by the first call rather than at import (schemas are built on
 * first use, see `lazySchema`; compiling the check walks the schema once) and the same object on every later
 * call: a decoder keeps the getter at module level and calls it per element.
 */
export function elementValidation<T>(schema: z.ZodType<T>): () => ElementValidation<T> {
  let made: ElementValidation<T> | undefined;
  return () => (made ??= { schema: built(schema), passesUnchanged: compilePassThroughCheck(schema) });
}
