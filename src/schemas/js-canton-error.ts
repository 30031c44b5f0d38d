import { z } from 'zod';
import { built, lazySchema } from './lazy-schema.js';
import { MapString, Tuple2StringString } from './common.js';
import { Int32 } from './primitives.js';

/**
 * `JsCantonError`: the JSON error body. The server always sends all ten keys, with `null` for absent
 * values; the schema also accepts them missing, as the spec allows.
 */
export const JsCantonError = lazySchema(() => z.looseObject({
  code: z.string(),
  cause: z.string(),
  correlationId: z.string().nullish(),
  traceId: z.string().nullish(),
  context: built(MapString),
  resources: z.array(built(Tuple2StringString)).nullish(),
  errorCategory: built(Int32),
  grpcCodeValue: built(Int32).nullish(),
  retryInfo: z.string().nullish(),
  definiteAnswer: z.boolean().nullish(),
}));
export type JsCantonError = z.output<typeof JsCantonError>;
