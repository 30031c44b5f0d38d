import { z } from 'zod';
import { built, lazySchema } from './lazy-schema.js';
import { Int32, Int64, Timestamp, type JsonValue } from './primitives.js';

/** `Field`: one field of a protobuf unknown-field set (scalapb well-known type plumbing). */
export const Field = lazySchema(() => z.looseObject({
  varint: z.array(built(Int64)).nullish(),
  fixed64: z.array(built(Int64)).nullish(),
  fixed32: z.array(built(Int32)).nullish(),
  lengthDelimited: z.array(z.string()).nullish(),
}));
export type Field = z.output<typeof Field>;

/** `Map_Int_Field`. */
export const MapIntField = lazySchema(() => z.record(z.string(), built(Field)));

/** `UnknownFieldSet`: `{"fields": {}}` on output. */
export const UnknownFieldSet = lazySchema(() => z.looseObject({ fields: built(MapIntField) }));
export type UnknownFieldSet = z.output<typeof UnknownFieldSet>;

/**
 * `Duration`: an object `{seconds, nanos}` (not the proto3 "1.5s" string). The server adds
 * `unknownFields` on output; it is optional on input.
 */
export const Duration = lazySchema(() => z.looseObject({
  seconds: built(Int64),
  nanos: built(Int32),
  unknownFields: built(UnknownFieldSet).nullish(),
}));
export type Duration = z.output<typeof Duration>;

/** `Empty`: the proto "not set" alternative of a variant, or a unit payload; encodes as `{}`. */
export const Empty = lazySchema(() => z.looseObject({}));
export type Empty = z.output<typeof Empty>;

/** `Map_String`: a string-to-string map (annotations, error context). */
export const MapString = lazySchema(() => z.record(z.string(), z.string()));

/** `Tuple2_String_String`: a `[type, value]` pair. */
export const Tuple2StringString = lazySchema(() => z.array(z.string()));

/** `TraceContext`: W3C trace headers of an update. */
export const TraceContext = lazySchema(() => z.looseObject({
  traceparent: z.string().nullish(),
  tracestate: z.string().nullish(),
}));
export type TraceContext = z.output<typeof TraceContext>;

/** `SynchronizerTime`: the latest record time seen on a synchronizer. */
export const SynchronizerTime = lazySchema(() => z.looseObject({
  synchronizerId: z.string(),
  recordTime: built(Timestamp),
}));
export type SynchronizerTime = z.output<typeof SynchronizerTime>;

/** `ObjectMeta`: a resource version and annotations (users, parties). */
export const ObjectMeta = lazySchema(() => z.looseObject({
  resourceVersion: z.string().nullish(),
  annotations: built(MapString).nullish(),
}));
export type ObjectMeta = z.output<typeof ObjectMeta>;

/** `FieldMask`: `{"paths": [...]}`; `unknownFields` is filled in by the server when absent. */
export const FieldMask = lazySchema(() => z.looseObject({
  paths: z.array(z.string()).nullish(),
  unknownFields: built(UnknownFieldSet).nullish(),
}));
export type FieldMask = z.output<typeof FieldMask>;

/**
 * `ProtoAny`: a packed protobuf message. `valueDecoded` is a string in the spec, but the server prints the
 * decoded `ErrorInfo`/`RetryInfo`/`ResourceInfo`/`RequestInfo` as a JSON object (a string only for other
 * types or a decoding failure; `JsSchema.scala:517-536` at e5f40da5e), so any JSON is accepted.
 */
export const ProtoAny = lazySchema(() => z.looseObject({
  typeUrl: z.string(),
  value: z.string(),
  unknownFields: built(UnknownFieldSet),
  valueDecoded: z.custom<JsonValue>(() => true).nullish(),
}));
export type ProtoAny = z.output<typeof ProtoAny>;

/** `JsStatus`: a google.rpc.Status, as used in interface view errors. */
export const JsStatus = lazySchema(() => z.looseObject({
  code: built(Int32),
  message: z.string(),
  details: z.array(built(ProtoAny)).nullish(),
}));
export type JsStatus = z.output<typeof JsStatus>;
