import { from, lastValueFrom, map, of, throwError, toArray, VirtualTimeScheduler } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { CommandFailedError, CommandOutcomeUnknownError, InvalidArgumentError, LedgerApiError, TransportError } from '../../src/errors/index.js';
import { submitAndTrack, trackCommands, type CommandOutcome } from '../../src/operators/index.js';
import type { JsCommands } from '../../src/schemas/index.js';
import { completionAt, completionCp, fakeCommandSource, miniParticipant } from '../support/fake-command-source.js';
import { createTestScheduler } from '../support/test-scheduler.js';

const ALICE = 'Alice::1220aa';
const cmd = (commandId: string, submissionId?: string): JsCommands =>
  ({ commands: [], commandId, actAs: [ALICE], userId: 'alice', ...(submissionId === undefined ? {} : { submissionId }) }) as JsCommands;
const summary = (o: CommandOutcome) => [o.commands.commandId, o.outcome, o.outcome === 'committed' ? o.completionOffset : o.error.name];

describe('trackCommands', () => {
  it('subscribes to completions from the ledger end before submitting; committed, failed and timed-out commands get their outcome', () => {
    createTestScheduler().run(({ cold, hot, expectObservable, flush }) => {
      const source = fakeCommandSource([
        () => cold('--a-k-b', { a: completionAt(12, 'c2', 's2', 10), k: completionCp(13), b: completionAt(15, 'c1', 's1') }),
      ]);
      const commands = hot('-xy|', { x: cmd('c1', 's1'), y: cmd('c2', 's2') });
      const outcomes: CommandOutcome[] = [];
      commands.pipe(trackCommands(source, { timeoutMs: 100 })).subscribe((o) => outcomes.push(o));
      const timedOut = of(cmd('c3', 's3')).pipe(trackCommands(fakeCommandSource([() => cold('-k', { k: completionCp(11) })]), { timeoutMs: 50 }));
      expectObservable(timedOut.pipe(map(summary))).toBe('50ms (a|)', { a: ['c3', 'unknown', 'CommandOutcomeUnknownError'] });
      flush();
      expect(outcomes.map(summary)).toEqual([['c2', 'failed', 'CommandFailedError'], ['c1', 'committed', 15]]);
      expect(source.log.map((e) => e.kind)).toEqual(['completions', 'submit', 'submit']);
      expect(source.log[0]?.kind === 'completions' && source.log[0].request).toEqual({ parties: [ALICE], beginExclusive: 10 });
      const failed = outcomes[0]?.outcome === 'failed' ? outcomes[0].error : undefined;
      expect(failed).toBeInstanceOf(CommandFailedError);
      expect(failed).toMatchObject({ cantonCode: 'LOCAL_VERDICT_LOCKED_CONTRACTS', status: { code: 10 }, completionOffset: 12, retryable: true });
    });
  });

  it('a lost submit answer still awaits the completion; a refused submission (4xx) fails at once; a missing submission id is generated', async () => {
    const lost = miniParticipant((c, at) => completionAt(at, c.commandId, c.submissionId as string), () => throwError(() => new TransportError('CONNECTION_RESET', 'reset')));
    const committed = await submitAndTrack(lost, cmd('c1'), { newSubmissionId: () => 'gen-1' });
    expect(committed).toMatchObject({ updateId: 'u-11', completionOffset: 11 });
    expect(lost.log[1]).toMatchObject({ kind: 'submit', commands: { submissionId: 'gen-1' } });

    const refusal = new LedgerApiError({ status: 400, body: { code: 'INVALID_ARGUMENT', cause: 'bad', correlationId: null, traceId: 't', context: {}, resources: [], errorCategory: 8, grpcCodeValue: 3, retryInfo: null, definiteAnswer: null } });
    const refused = miniParticipant(() => undefined, () => throwError(() => refusal));
    await expect(submitAndTrack(refused, cmd('c1', 's1'))).rejects.toBe(refusal);
  });

  it('an unknown outcome says how to find it: the offset the completions were read after, and the cause', async () => {
    const lostAnswer = new TransportError('CONNECTION_RESET', 'reset');
    const source = miniParticipant(() => undefined, () => throwError(() => lostAnswer), 42);
    const error = await submitAndTrack(source, cmd('c1', 's1'), { timeoutMs: 5 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CommandOutcomeUnknownError);
    expect(error).toMatchObject({ commandId: 'c1', submissionId: 's1', beginExclusive: 42, timeoutMs: 5, cause: lostAnswer });
  });

  it('many commands share one completion stream per party set; other parties get their own', async () => {
    const bob = 'Bob::1220bb';
    const source = miniParticipant((c, at) => completionAt(at, c.commandId, c.submissionId as string, 0, c.actAs));
    const bobs = { ...cmd('b1', 'sb1'), actAs: [bob] } as JsCommands;
    const outcomes = await lastValueFrom(from([cmd('a1', 'sa1'), cmd('a2', 'sa2'), bobs]).pipe(trackCommands(source, { concurrency: 1 }), toArray()));
    expect(outcomes.map(summary)).toEqual([['a1', 'committed', 11], ['a2', 'committed', 12], ['b1', 'committed', 13]]);
    expect(source.log.filter((e) => e.kind === 'completions').map((e) => e.kind === 'completions' && e.request.parties)).toEqual([[ALICE], [bob]]);
  });

  it('rejects bad options at the call', () => {
    const source = fakeCommandSource([]);
    expect(() => trackCommands(source, { timeoutMs: 0 })).toThrow(InvalidArgumentError);
    expect(() => trackCommands(source, { concurrency: 0 })).toThrow(InvalidArgumentError);
    expect(() => trackCommands(source, { parties: [] })).toThrow(InvalidArgumentError);
  });
});

describe('submitAndTrack', () => {
  const streams = (source: { log: { kind: string }[] }) => source.log.filter((e) => e.kind === 'completions').length;

  it('calls on one client share the completion stream of their parties while in flight and for lingerMs after; then it closes', async () => {
    const source = miniParticipant((c, at) => completionAt(at, c.commandId, c.submissionId as string));
    const scheduler = new VirtualTimeScheduler();
    const options = { scheduler, lingerMs: 100 };
    const together = await Promise.all(['a1', 'a2', 'a3'].map((id) => submitAndTrack(source, cmd(id, `s-${id}`), options)));
    expect(together.map((c) => c.completionOffset)).toEqual([11, 12, 13]);
    expect(streams(source)).toBe(1);
    // within the linger (no virtual time passed): the next call joins the open stream
    await expect(submitAndTrack(source, cmd('a4', 's-a4'), options)).resolves.toMatchObject({ completionOffset: 14 });
    expect(streams(source)).toBe(1);
    scheduler.flush(); // the linger passes: the stream closes
    await expect(submitAndTrack(source, cmd('a5', 's-a5'), options)).resolves.toMatchObject({ completionOffset: 15 });
    expect(streams(source)).toBe(2);
    // other stream options (here lingerMs 0) never share with these
    await submitAndTrack(source, cmd('a6', 's-a6'), { scheduler, lingerMs: 0 });
    expect(streams(source)).toBe(3);
    expect(source.log.filter((e) => e.kind === 'submit')).toHaveLength(6);
  });

  it('nothing submitted when the ledger end cannot be read: rejects with that error, not as an unknown outcome', async () => {
    const down = new TransportError('CONNECTION_FAILED', 'connect ECONNREFUSED');
    const participant = miniParticipant((c, at) => completionAt(at, c.commandId, c.submissionId as string));
    let up = false;
    const source = { ...participant, ledgerEnd: () => (up ? participant.ledgerEnd() : throwError(() => down)) };
    await expect(submitAndTrack(source, cmd('c1', 's1'))).rejects.toBe(down);
    expect(participant.log).toEqual([]);
    const outcomes = await lastValueFrom(of(cmd('c2', 's2')).pipe(trackCommands(source), toArray()));
    expect(outcomes.map(summary)).toEqual([['c2', 'failed', 'TransportError']]);
    // the failed stream is forgotten: once the participant answers again, the next call starts afresh
    up = true;
    await expect(submitAndTrack(source, cmd('c3', 's3'))).resolves.toMatchObject({ completionOffset: 11 });
    expect(participant.log.map((e) => e.kind)).toEqual(['completions', 'submit']);
  });

  it('rejects a bad lingerMs at the call', () => {
    expect(() => submitAndTrack(fakeCommandSource([]), cmd('c1'), { lingerMs: -1 })).toThrow(InvalidArgumentError);
    expect(() => submitAndTrack(fakeCommandSource([]), cmd('c1'), { lingerMs: 1.5 })).toThrow(InvalidArgumentError);
  });
});
