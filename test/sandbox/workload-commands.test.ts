import { describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { WorkloadGenerator } from '../../src/sandbox/workload/workload-generator.js';
import { call } from '../support/sandbox-http.js';

interface Completion {
  commandId: string;
  status: { code: number; message: string };
  updateId: string;
  userId: string;
  submissionId: string;
  offset: number;
  synchronizerTime: { recordTime: string };
}
type Element = { completionResponse: { Completion?: { value: Completion } } };

/** Every completion of the participant (raw `POST /v2/commands/command-completions`, every user, any party). */
async function allCompletions(sandbox: Sandbox): Promise<Completion[]> {
  const r = await call(sandbox.url, 'POST', '/v2/commands/command-completions?stream_idle_timeout_ms=0', { body: { beginExclusive: 0 } });
  expect(r.status, r.text.slice(0, 300)).toBe(200);
  return (r.json as Element[]).flatMap((e) => (e.completionResponse.Completion ? [e.completionResponse.Completion.value] : []));
}

const codeOf = (c: Completion) => (c.status.code === 0 ? 'ok' : (/^([A-Z_]+)\(/.exec(c.status.message)?.[1] ?? `code ${c.status.code}`));

/** `steps` steps of the live workload on a new sandbox, as `startWorkload` runs them (without the timer). */
async function runWorkload(randomSeed: number, steps: number): Promise<{ completions: Completion[]; sandbox: Sandbox }> {
  const sandbox = await startSandbox({ seed: 30, randomSeed });
  new WorkloadGenerator(sandbox.state, undefined).generate(steps);
  return { completions: await allCompletions(sandbox), sandbox };
}

describe('the live workload submits commands', () => {
  it('leaves completions, accepted and rejected as a real workload sees them, the same for the same seed', async () => {
    const a = await runWorkload(7, 400);
    const b = await runWorkload(7, 400);
    const c = await runWorkload(8, 400);
    try {
      const codes = new Set(a.completions.map(codeOf));
      expect(codes).toEqual(new Set(['ok', 'DUPLICATE_COMMAND', 'LOCAL_VERDICT_INACTIVE_CONTRACTS']));
      // about one step in four is a submission
      expect(a.completions.length).toBeGreaterThan(50);
      expect(a.completions.length).toBeLessThan(150);
      for (const completion of a.completions) {
        expect(completion.userId).toBe('ledger-rx-workload');
        expect(completion.commandId).toMatch(/^workload-\d+$/);
      }
      // an accepted command's transaction carries its command id; a rejected one has no update
      const updates = new Map(a.sandbox.updates().map((u) => [u.updateId, u]));
      for (const completion of a.completions) {
        if (completion.status.code === 0) expect(updates.get(completion.updateId)).toMatchObject({ commandId: completion.commandId, offset: completion.offset });
        else expect(completion.updateId).toBe('');
      }
      // a duplicate repeats the command id of an accepted create
      const duplicate = a.completions.find((x) => codeOf(x) === 'DUPLICATE_COMMAND') as Completion;
      expect(a.completions.find((x) => x.commandId === duplicate.commandId && x.status.code === 0)).toBeDefined();

      const timeless = (cs: Completion[]) => cs.map((x) => ({ ...x, synchronizerTime: { ...x.synchronizerTime, recordTime: '' } }));
      expect(timeless(b.completions)).toEqual(timeless(a.completions));
      expect(timeless(c.completions)).not.toEqual(timeless(a.completions));
    } finally {
      await Promise.all([a.sandbox.close(), b.sandbox.close(), c.sandbox.close()]);
    }
  });
});
