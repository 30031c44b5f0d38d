import type { JsGetUpdatesResponse } from '../../schemas/updates.js';
import { ledgerSubjectKind } from './ledger-subject.js';

/** The header names of a published element (besides `Nats-Msg-Id`). */
export const LedgerHeaders = {
  /** The element's offset (decimal). */
  offset: 'Ledger-Offset',
  /** `transaction`, `reassignment`, `topology`, `checkpoint` or `unknown`. */
  kind: 'Ledger-Kind',
  updateId: 'Ledger-Update-Id',
  recordTime: 'Ledger-Record-Time',
  synchronizerId: 'Ledger-Synchronizer-Id',
  /** W3C trace context of the update, as the participant gave it. */
  traceparent: 'traceparent',
  tracestate: 'tracestate',
  /**
   * Which publisher stored the message: `<the stream's last sequence when it started>.<random id>`. When two
   * publishers race on one stream, the one that started later yields (see `PublishPort.rival`).
   */
  publisher: 'Ledger-Publisher',
} as const;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' && !/[\r\n]/.test(v) ? v : undefined);

/**
 * The headers of an element as `[name, value]` pairs (see {@link LedgerHeaders}): always the offset and the
 * kind; the update id, record time, synchronizer and trace context when the element has them (a value
 * with a line break is left out: it cannot be a header). Never throws.
 */
export function ledgerHeaders(element: JsGetUpdatesResponse, offset: number): [string, string][] {
  const out: [string, string][] = [
    [LedgerHeaders.offset, String(offset)],
    [LedgerHeaders.kind, ledgerSubjectKind(element)],
  ];
  const update: unknown = element.update;
  if (!isObject(update)) return out;
  let value: Json | undefined;
  for (const key in update) {
    const payload = update[key];
    value = isObject(payload) && isObject(payload['value']) ? payload['value'] : undefined;
    break;
  }
  if (!value) return out;
  const add = (name: string, v: unknown) => {
    const s = str(v);
    if (s !== undefined) out.push([name, s]);
  };
  add(LedgerHeaders.updateId, value['updateId']);
  add(LedgerHeaders.recordTime, value['recordTime']);
  add(LedgerHeaders.synchronizerId, value['synchronizerId']);
  const trace = value['traceContext'];
  if (isObject(trace)) {
    add(LedgerHeaders.traceparent, trace['traceparent']);
    add(LedgerHeaders.tracestate, trace['tracestate']);
  }
  return out;
}
