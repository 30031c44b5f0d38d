import { protobufWire } from '../decode/protobuf-wire.js';
import { categoryRule } from '../errors/category-rules.js';
import type { CompletionRejection } from '../ledger/completion-record.js';

const unknownFields = '{"fields":{}}';

function any(typeUrl: string, value: Buffer, decoded: string): string {
  return `{"typeUrl":"type.googleapis.com/${typeUrl}","value":"${value.toString('base64')}","valueDecoded":${decoded},"unknownFields":${unknownFields}}`;
}

/**
 * The `status` of a completion: `{"code":0,"message":"","details":[]}` for an accepted command; for a
 * rejected one the gRPC code of the error's category, the message `CODE(category,correlation): cause`
 * (the first 8 characters of the submission id) and the details the participant attaches — an `ErrorInfo`
 * (reason = the error code, metadata = the error context, `category` and `definite_answer`) and a
 * `RequestInfo` (the submission id) — each as the JSON API prints a protobuf `Any`: `typeUrl`, `value`
 * (Base64 of the message), `valueDecoded` (the message as JSON; the spec declares a string here, the
 * server prints an object, JsSchema.scala:518-536 at e5f40da5e) and `unknownFields`.
 */
export function renderCompletionStatus(rejection: CompletionRejection | undefined, submissionId: string): string {
  if (!rejection) return '{"code":0,"message":"","details":[]}';
  const grpc = categoryRule(rejection.category)?.grpcCode ?? 2;
  const message = `${rejection.code}(${rejection.category},${submissionId.slice(0, 8) || '0'}): ${rejection.cause}`;
  const metadata: Record<string, string> = { ...rejection.context, category: String(rejection.category), definite_answer: 'true' };
  const entries = Object.entries(metadata).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const errorInfo = protobufWire.encode([
    [1, Buffer.from(rejection.code)],
    ...entries.map(([k, v]) => [3, protobufWire.encode([[1, Buffer.from(k)], [2, Buffer.from(v)]])] as const),
  ]);
  const requestInfo = protobufWire.encode([[1, Buffer.from(submissionId)]]);
  const details = [
    any('google.rpc.ErrorInfo', errorInfo, `{"reason":${JSON.stringify(rejection.code)},"domain":"","metadata":${JSON.stringify(Object.fromEntries(entries))},"unknownFields":${unknownFields}}`),
    any('google.rpc.RequestInfo', requestInfo, `{"requestId":${JSON.stringify(submissionId)},"servingData":"","unknownFields":${unknownFields}}`),
  ];
  return `{"code":${grpc},"message":${JSON.stringify(message)},"details":[${details.join(',')}]}`;
}
