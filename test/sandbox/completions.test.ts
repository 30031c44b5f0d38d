import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { call } from '../support/sandbox-http.js';
import { openStream } from '../support/sandbox-ws.js';
import { expectError, expectRedacted, testSecret } from './auth-test-kit.js';
import { addUser, createIou, sleep } from './ledger-support.js';

interface Completion {
  commandId: string;
  status: { code: number; message: string; details: { typeUrl: string; valueDecoded: { reason?: string; metadata?: Record<string, string> } }[] };
  updateId: string;
  userId: string;
  actAs: string[];
  submissionId: string;
  deduplicationPeriod: Record<string, unknown>;
  traceContext: unknown;
  offset: number;
  synchronizerTime: { synchronizerId: string; recordTime: string };
  paidTrafficCost: number;
}
type Element = { completionResponse: { Completion?: { value: Completion }; OffsetCheckpoint?: { value: { offset: number } } } };

let sandbox: Sandbox;
let alice: string;
let bob: string;
let n = 0;

const submit = (body: Record<string, unknown>) =>
  call(sandbox.url, 'POST', '/v2/commands/async/submit', { body: { commandId: `c-${++n}`, actAs: [alice], userId: 'app', ...body } });

async function completionsOf(body: Record<string, unknown>, path = '/v2/commands/completions'): Promise<Completion[]> {
  const r = await call(sandbox.url, 'POST', `${path}?stream_idle_timeout_ms=0`, { body });
  expect(r.status, r.text.slice(0, 300)).toBe(200);
  return (r.json as Element[]).flatMap((e) => (e.completionResponse.Completion ? [e.completionResponse.Completion.value] : []));
}

beforeAll(async () => {
  sandbox = await startSandbox({ seed: 10, synchronizers: 2 });
  alice = sandbox.partyId('Alice');
  bob = sandbox.partyId('Bob');
});
afterAll(() => sandbox.close());

describe('command completions', () => {
  it('an accepted submission completes at its transaction offset with the fields the participant fills', async () => {
    const from = sandbox.ledgerEnd();
    const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    const r = await call(sandbox.url, 'POST', '/v2/commands/async/submit', {
      body: { commands: [createIou(alice, bob)], commandId: 'fields', actAs: [alice, bob], userId: 'app', submissionId: 'sub-1', deduplicationPeriod: { DeduplicationDuration: { value: { seconds: 60, nanos: 0 } } } },
      headers: { traceparent },
    });
    expect(r.json).toEqual({});
    const tx = sandbox.updates({ beginExclusive: from }).find((u) => u.kind === 'Transaction' && u.commandId === 'fields');
    const [c] = await completionsOf({ userId: 'app', parties: [alice], beginExclusive: from });
    expect(c).toMatchObject({
      commandId: 'fields',
      status: { code: 0, message: '', details: [] },
      updateId: tx?.updateId,
      userId: 'app',
      actAs: [alice], // the submitters among the requested parties
      submissionId: 'sub-1',
      deduplicationPeriod: { DeduplicationDuration: { value: { seconds: 60, nanos: 0 } } },
      traceContext: { traceparent, tracestate: null },
      offset: tx?.offset,
      synchronizerTime: { synchronizerId: sandbox.state.synchronizers[0]?.id },
    });
    expect(c?.paidTrafficCost).toBeGreaterThan(0);
    // every user's, for both parties
    const all = await completionsOf({ parties: [alice, bob], beginExclusive: from }, '/v2/commands/command-completions');
    expect(all.find((x) => x.commandId === 'fields')?.actAs.sort()).toEqual([alice, bob].sort());
  });

  it('reports failures after acceptance as completions: an injected timeout, and contention on a contract consumed meanwhile', async () => {
    const from = sandbox.ledgerEnd();
    sandbox.injectSubmissionFault({ kind: 'timeout' });
    expect((await submit({ commands: [createIou(alice, alice)], commandId: 'times-out' })).json).toEqual({});
    const delayed = await startSandbox({ submissionDelayMs: 100 });
    try {
      const a = delayed.partyId('Alice');
      const cid = (await delayed.submit({ commands: [createIou(a, a)], commandId: 'iou', actAs: [a] })).contractIds[0] as string;
      const archive = (commandId: string) =>
        call(delayed.url, 'POST', '/v2/commands/async/submit', {
          body: { commands: [{ ExerciseCommand: { templateId: '#ledger-rx-demo:Iou:Iou', contractId: cid, choice: 'Archive', choiceArgument: {} } }], commandId, actAs: [a], userId: 'app' },
        });
      expect((await archive('first')).json).toEqual({});
      expect((await archive('second')).json).toEqual({}); // accepted: the contract is still active when it is interpreted
      expectError(await archive('first'), 409, 'SUBMISSION_ALREADY_IN_FLIGHT');
      await sleep(250);
      const r = await call(delayed.url, 'POST', '/v2/commands/completions?stream_idle_timeout_ms=0', { body: { userId: 'app', parties: [a] } });
      const completions = (r.json as Element[]).flatMap((e) => (e.completionResponse.Completion ? [e.completionResponse.Completion.value] : []));
      expect(completions.map((c) => [c.commandId, c.status.code])).toEqual([
        ['first', 0],
        ['second', 5],
      ]);
      const second = completions[1] as Completion;
      expect(second.status.message).toMatch(/^LOCAL_VERDICT_INACTIVE_CONTRACTS\(11,[0-9a-f-]{8}\): Rejected transaction is referring to inactive contracts/);
      expect(second.updateId).toBe('');
      expect(second.paidTrafficCost).toBe(0);
      expect(second.status.details[0]).toMatchObject({ typeUrl: 'type.googleapis.com/google.rpc.ErrorInfo', valueDecoded: { reason: 'LOCAL_VERDICT_INACTIVE_CONTRACTS' } });
      expect(delayed.updates().filter((u) => u.kind === 'Transaction' && u.commandId === 'second')).toEqual([]);
    } finally {
      await delayed.close();
    }
    const [timedOut] = (await completionsOf({ userId: 'app', parties: [alice], beginExclusive: from })).filter((c) => c.commandId === 'times-out');
    expect(timedOut?.status.code).toBe(10);
    expect(timedOut?.status.message).toMatch(/^NOT_SEQUENCED_TIMEOUT\(2,/);
    await expect(sandbox.submit({ commands: [createIou(alice, alice)], commandId: 'again', actAs: [alice] })).resolves.toBeDefined();
    sandbox.injectSubmissionFault({ kind: 'contention' });
    await expect(sandbox.submit({ commands: [createIou(alice, alice)], commandId: 'in-process', actAs: [alice] })).rejects.toThrow(/LOCAL_VERDICT_LOCKED_CONTRACTS/);
  });

  it('a reassignment completes too; the stream over WebSocket carries completions and checkpoints and stays open', async () => {
    const live = await startSandbox({ synchronizers: 2, idleCheckpointIntervalMs: 200, checkpointIntervalMs: 50 });
    try {
      const a = live.partyId('Alice');
      const [s0, s1] = live.state.synchronizers.map((s) => s.id);
      const ws = await openStream(live.url, '/v2/commands/completions', { userId: 'app', parties: [a] });
      const cid = (await live.submit({ commands: [createIou(a, a)], commandId: 'to-move', actAs: [a], userId: 'app' })).contractIds[0] as string;
      const moved = await call(live.url, 'POST', '/v2/commands/submit-and-wait-for-reassignment', {
        body: { reassignmentCommands: { userId: 'app', commandId: 'move', submitter: a, commands: [{ command: { UnassignCommand: { value: { contractId: cid, source: s0, target: s1 } } } }] } },
      });
      expect(moved.status).toBe(200);
      await ws.waitFrames(2);
      await sleep(500);
      const kinds = ws.frames.map((f) => Object.keys((f as Element).completionResponse)[0]);
      expect(kinds.filter((k) => k === 'Completion')).toHaveLength(2);
      expect(kinds).toContain('OffsetCheckpoint');
      const commands = ws.frames.flatMap((f) => ((f as Element).completionResponse.Completion ? [(f as Element).completionResponse.Completion?.value.commandId] : []));
      expect(commands).toEqual(['to-move', 'move']);
      const offsets = ws.frames.map((f) => {
        const r = (f as Element).completionResponse;
        return (r.Completion?.value.offset ?? r.OffsetCheckpoint?.value.offset) as number;
      });
      expect(offsets).toEqual([...offsets].sort((x, y) => x - y));
      ws.ws.close();
    } finally {
      await live.close();
    }
  });

  it('validates requests like the participant', async () => {
    expectError(await call(sandbox.url, 'POST', '/v2/commands/completions', { body: { userId: 'app' } }), 400, 'MISSING_FIELD');
    expectError(await call(sandbox.url, 'POST', '/v2/commands/completions', { body: { parties: [alice] } }), 400, 'INVALID_TOKEN');
    expectError(await call(sandbox.url, 'POST', '/v2/commands/completions', { body: { userId: 'app', parties: [alice], beginExclusive: sandbox.ledgerEnd() + 1 } }), 400, 'OFFSET_AFTER_LEDGER_END');
    expectError(await call(sandbox.url, 'POST', '/v2/commands/command-completions', { body: { parties: ['not a party!'] } }), 400, 'INVALID_ARGUMENT');
    const secured = await startSandbox({ authSecret: testSecret });
    try {
      addUser(secured, 'reader', [{ kind: 'CanReadAs', party: secured.partyId('Alice') }]);
      const token = await secured.token('reader');
      expectRedacted(await call(secured.url, 'POST', '/v2/commands/command-completions', { token, body: { parties: [] } }), 403);
      const own = await call(secured.url, 'POST', '/v2/commands/completions?stream_idle_timeout_ms=0', { token, body: { parties: [secured.partyId('Alice')] } });
      expect(own.status).toBe(200); // the user id defaults to the token's
      expectRedacted(await call(secured.url, 'POST', '/v2/commands/completions', { token, body: { userId: 'someone-else', parties: [secured.partyId('Alice')] } }), 403);
    } finally {
      await secured.close();
    }
  });
});
