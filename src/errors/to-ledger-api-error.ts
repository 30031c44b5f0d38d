import type { CantonErrorBody } from './canton-error-body.js';
import { LedgerApiError, type LedgerApiErrorInit } from './ledger-api-error.js';
import { PrunedOffsetError } from './pruned-offset-error.js';

/** True when `value` has the ten-key shape of a Canton error body (the four required keys suffice). */
export function isCantonErrorBody(value: unknown): value is CantonErrorBody {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v['code'] === 'string' && typeof v['cause'] === 'string' && typeof v['errorCategory'] === 'number'
    && typeof v['context'] === 'object' && v['context'] !== null;
}

/** Normalises a decoded Canton error body so every one of the ten keys is present. */
export function normalizeCantonErrorBody(value: CantonErrorBody): CantonErrorBody {
  const v = value as Partial<CantonErrorBody> & Pick<CantonErrorBody, 'code' | 'cause' | 'errorCategory' | 'context'>;
  return {
    code: v.code,
    cause: v.cause,
    correlationId: v.correlationId ?? null,
    traceId: v.traceId ?? null,
    context: v.context,
    resources: Array.isArray(v.resources) ? v.resources : [],
    errorCategory: v.errorCategory,
    grpcCodeValue: v.grpcCodeValue ?? null,
    retryInfo: v.retryInfo ?? null,
    definiteAnswer: v.definiteAnswer ?? null,
  };
}

/** Builds the most specific {@link LedgerApiError} subclass for a response. */
export function toLedgerApiError(init: LedgerApiErrorInit): LedgerApiError {
  if (init.body?.code === 'PARTICIPANT_PRUNED_DATA_ACCESSED') return new PrunedOffsetError(init);
  return new LedgerApiError(init);
}
