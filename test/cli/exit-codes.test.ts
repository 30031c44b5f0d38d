import { describe, expect, it } from 'vitest';
import { describeError } from '../../src/cli/process/describe-error.js';
import { exitCodeFor } from '../../src/cli/process/exit-code-for.js';
import { ExitCode } from '../../src/cli/process/exit-code.js';
import { UsageError } from '../../src/cli/options/usage-error.js';
import { CommandFailedError } from '../../src/errors/command-failed-error.js';
import { CommandOutcomeUnknownError } from '../../src/errors/command-outcome-unknown-error.js';
import { InvalidArgumentError } from '../../src/errors/invalid-argument-error.js';
import { LedgerApiError } from '../../src/errors/ledger-api-error.js';
import { LedgerRxError } from '../../src/errors/ledger-rx-error.js';
import { ProtocolError } from '../../src/errors/protocol-error.js';
import { PrunedOffsetError } from '../../src/errors/pruned-offset-error.js';
import { RetriesExhaustedError } from '../../src/errors/retries-exhausted-error.js';
import { TransportError } from '../../src/errors/transport-error.js';
import type { CantonErrorBody } from '../../src/errors/canton-error-body.js';

const body = (code: string, cause: string, extra: Partial<CantonErrorBody> = {}): CantonErrorBody => ({
  code,
  cause,
  correlationId: 'corr-123',
  traceId: null,
  context: {},
  resources: [],
  errorCategory: 9,
  grpcCodeValue: 9,
  retryInfo: null,
  definiteAnswer: null,
  ...extra,
});

describe('exit codes', () => {
  it('maps errors to the documented codes', () => {
    expect(exitCodeFor(new UsageError('bad'))).toBe(ExitCode.USAGE);
    expect(exitCodeFor(new InvalidArgumentError('limit', 'must be >= 1'))).toBe(2);
    expect(exitCodeFor(new LedgerApiError({ status: 403, body: body('PERMISSION_DENIED', 'no', { errorCategory: 7 }) }))).toBe(3);
    expect(exitCodeFor(new PrunedOffsetError({ status: 400, body: body('PARTICIPANT_PRUNED_DATA_ACCESSED', 'pruned', { context: { earliest_offset: '40' } }) }))).toBe(3);
    expect(exitCodeFor(new ProtocolError('OFFSET_NOT_INCREASING', 'backwards'))).toBe(3);
    expect(exitCodeFor(new RetriesExhaustedError(10, new TransportError('CONNECTION_FAILED', 'refused')))).toBe(ExitCode.RETRIES_EXHAUSTED);
    expect(exitCodeFor(new LedgerRxError('CHECKPOINT_STORE_FAILED', 'disk full'))).toBe(1);
    expect(exitCodeFor(new Error('boom'))).toBe(1);
    const status = { code: 10, message: 'LOCAL_VERDICT_LOCKED_CONTRACTS(2,abcd1234): locked', details: [] };
    expect(exitCodeFor(new CommandFailedError({ commandId: 'c', submissionId: 's', status, completionOffset: 5, completion: {} }))).toBe(ExitCode.COMMAND_FAILED);
    expect(exitCodeFor(new CommandOutcomeUnknownError({ commandId: 'c', submissionId: 's', actAs: ['A'], userId: undefined, timeoutMs: 1, beginExclusive: 4 }))).toBe(ExitCode.OUTCOME_UNKNOWN);
    expect(ExitCode).toEqual({ OK: 0, ERROR: 1, USAGE: 2, SERVER: 3, RETRIES_EXHAUSTED: 4, COMMAND_FAILED: 5, OUTCOME_UNKNOWN: 6 });
  });
});

describe('describeError', () => {
  it('prints the code, the cause and the correlation id of a server error', () => {
    const text = describeError(new LedgerApiError({ status: 404, body: body('USER_NOT_FOUND', 'no user bob'), request: 'GET /v2/users/bob' }));
    expect(text).toBe('error: USER_NOT_FOUND: no user bob\n  correlation id: corr-123\n  request: GET /v2/users/bob → HTTP 404');
  });

  it('falls back to the trace id when a gRPC-side error has no correlation id', () => {
    const text = describeError(new LedgerApiError({ status: 404, body: { ...body('USER_NOT_FOUND', 'no user bob'), correlationId: null, traceId: 'abc123' } }));
    expect(text).toBe('error: USER_NOT_FOUND: no user bob\n  correlation id: abc123 (trace id)');
  });

  it('prints the earliest available offset of a pruned read', () => {
    const error = new PrunedOffsetError({ status: 400, body: body('PARTICIPANT_PRUNED_DATA_ACCESSED', 'precedes pruned offset 40', { context: { earliest_offset: '40' } }) });
    expect(describeError(error)).toContain('earliest available offset: 40 (restart with --from 40)');
  });

  it('prints the last error behind exhausted retries', () => {
    const text = describeError(new RetriesExhaustedError(3, new TransportError('CONNECTION_FAILED', 'connect ECONNREFUSED')));
    expect(text.split('\n')[0]).toBe('error: RETRIES_EXHAUSTED: gave up after 3 retries');
    expect(text).toContain('last error: CONNECTION_FAILED');
  });

  it('prints usage errors and plain errors', () => {
    expect(describeError(new UsageError('--to must be …'))).toBe('error: --to must be …');
    expect(describeError(new Error('boom'))).toBe('error: boom');
    expect(describeError('weird')).toBe('error: weird');
  });
});
