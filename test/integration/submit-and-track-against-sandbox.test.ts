import { from, lastValueFrom, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLedgerClient, newCommandId, type LedgerClient } from '../../src/client/index.js';
import { CommandFailedError } from '../../src/errors/index.js';
import { submitAndTrack, trackCommands } from '../../src/operators/index.js';
import type { JsCommands } from '../../src/schemas/index.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { startCutProxy } from '../support/cut-proxy.js';

/**
 * `submitAndTrack` and `trackCommands` against the sandbox, under faults: the completion stream cut while
 * commands are in flight, the submission's answer lost after the participant accepted it, a duplicate change
 * id, an accepted command that fails later. Every call ends with the right outcome; none hangs.
 */

let sandbox: Sandbox;
let client: LedgerClient;
let alice: string;
const fast = { initialDelayMs: 5, maxDelayMs: 20, maxAttempts: 5, jitter: 0 };
const iou = (commandId = newCommandId('t')): JsCommands =>
  ({
    commands: [{ CreateCommand: { templateId: '#ledger-rx-demo:Iou:Iou', createArguments: { issuer: alice, owner: alice, currency: 'CHF', amount: '1.0000000000', observers: [] } } }],
    commandId,
    actAs: [alice],
    userId: 'participant_admin',
  }) as JsCommands;

beforeAll(async () => {
  sandbox = await startSandbox({ seed: 20 });
  alice = sandbox.partyId('Alice');
  client = createLedgerClient({ baseUrl: sandbox.url });
});
afterAll(async () => {
  await client.close();
  await sandbox.close();
});

describe('submitAndTrack against the sandbox', () => {
  it('resolves with the update and completion offset of a committed command; a command failing later and a duplicate change id reject with CommandFailedError', async () => {
    const commands = iou();
    const committed = await submitAndTrack(client, commands, { timeoutMs: 5_000 });
    const update = sandbox.updates().find((u) => u.updateId === committed.updateId);
    expect(update?.kind === 'Transaction' && update.commandId).toBe(commands.commandId);
    expect(committed.completionOffset).toBe(update?.offset);

    const duplicate = await submitAndTrack(client, commands, { timeoutMs: 5_000 }).catch((e: unknown) => e);
    expect(duplicate).toBeInstanceOf(CommandFailedError);
    expect(duplicate).toMatchObject({ cantonCode: 'DUPLICATE_COMMAND', commandId: commands.commandId });

    sandbox.injectSubmissionFault({ kind: 'inactive-contracts' });
    const failed = await submitAndTrack(client, iou(), { timeoutMs: 5_000 }).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(CommandFailedError);
    expect(failed).toMatchObject({ cantonCode: 'LOCAL_VERDICT_INACTIVE_CONTRACTS', retryable: false });
  });

  it('the answer to the submission lost after the participant accepted it: the completion still resolves it', async () => {
    const proxy = await startCutProxy(sandbox.url, { match: (head) => head.startsWith('POST /v2/commands/async/submit'), afterBytes: 0 });
    const cut = createLedgerClient({ baseUrl: proxy.url });
    try {
      const commands = iou();
      const committed = await submitAndTrack(cut, commands, { timeoutMs: 5_000, retry: fast });
      expect(proxy.cuts()).toBe(1);
      expect(sandbox.updates().some((u) => u.updateId === committed.updateId)).toBe(true);
    } finally {
      await cut.close();
      await proxy.close();
    }
  });

  it.each(['websocket', 'list'] as const)('trackCommands over %s: 30 commands in flight while the completion stream is cut, each committed once', async (transport) => {
    const proxy = await startCutProxy(sandbox.url, {
      match: (head) => head.startsWith('GET /v2/commands/command-completions') || head.startsWith('POST /v2/commands/command-completions'),
      afterBytes: 3_000,
    });
    const cut = createLedgerClient({ baseUrl: proxy.url });
    try {
      const all = Array.from({ length: 30 }, () => iou());
      const outcomes = await lastValueFrom(from(all).pipe(trackCommands(cut, { timeoutMs: 10_000, concurrency: 10, transport, retry: fast }), toArray()));
      expect(proxy.cuts()).toBe(1);
      expect(outcomes.map((o) => o.outcome)).toEqual(all.map(() => 'committed'));
      expect(new Set(outcomes.map((o) => o.commands.commandId))).toEqual(new Set(all.map((c) => c.commandId)));
      const offsets = outcomes.map((o) => (o.outcome === 'committed' ? o.completionOffset : -1));
      expect(new Set(offsets).size).toBe(30);
    } finally {
      await cut.close();
      await proxy.close();
    }
  });
});
