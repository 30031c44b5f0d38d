import { randomBytes } from 'node:crypto';

/** The parts of a W3C `traceparent` header (version 00). */
export interface Traceparent {
  /** 32 lower-case hex digits, not all zero. */
  readonly traceId: string;
  /** 16 lower-case hex digits, not all zero. */
  readonly spanId: string;
  /** Bit 0: sampled. */
  readonly flags: number;
}

const pattern = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;

/**
 * Parses a W3C `traceparent` (https://www.w3.org/TR/trace-context/#traceparent-header): version `00` exactly
 * (four fields), or a later version with at least those fields; `ff`, an all-zero trace or span id, or any
 * other form is `undefined`.
 */
export function parseTraceparent(text: string): Traceparent | undefined {
  const m = pattern.exec(text.trim());
  if (!m) return undefined;
  const [, version, traceId, spanId, flags, rest] = m as unknown as [string, string, string, string, string, string | undefined];
  if (version === 'ff' || (version === '00' && rest !== undefined)) return undefined;
  if (/^0+$/.test(traceId) || /^0+$/.test(spanId)) return undefined;
  return { traceId, spanId, flags: Number.parseInt(flags, 16) };
}

/**
 * A fresh `traceparent`: random trace and span ids, flags `00` (not sampled: it asks the participant for
 * nothing but the correlation, its error bodies then carry this trace id).
 */
export function newTraceparent(): string {
  const bytes = randomBytes(24);
  return `00-${bytes.toString('hex', 0, 16)}-${bytes.toString('hex', 16, 24)}-00`;
}
