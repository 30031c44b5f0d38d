import { z } from 'zod';
import { MapString, Tuple2StringString } from './common.js';
import { Int32 } from './primitives.js';

/**
 * `JsCantonError`: the JSON error body. The server always sends all ten keys, with `null` for absent
 * values; the schema also accepts them missing, as the spec allows.
 */
export const JsCantonError = z.looseObject({
  code: z.string(),
  cause: z.string(),
  correlationId: z.string().nullish(),
  traceId: z.string().nullish(),
  context: MapString,
  resources: z.array(Tuple2StringString).nullish(),
  errorCategory: Int32,
  grpcCodeValue: Int32.nullish(),
  retryInfo: z.string().nullish(),
  definiteAnswer: z.boolean().nullish(),
});
export type JsCantonError = z.output<typeof JsCantonError>;
