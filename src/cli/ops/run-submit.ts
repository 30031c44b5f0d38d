import { readFile } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { newCommandId } from '../../client/unary/new-command-id.js';
import { CommandFailedError } from '../../errors/command-failed-error.js';
import { CommandOutcomeUnknownError } from '../../errors/command-outcome-unknown-error.js';
import { submitAndTrack } from '../../operators/submit-and-track.js';
import type { JsCommands } from '../../schemas/commands.js';
import type { CliIo } from '../process/cli-io.js';
import type { ExitCode } from '../process/exit-code.js';
import { runClientCommand } from './run-client-command.js';
import { UsageError } from '../options/usage-error.js';
import type { SubmitOptions } from './submit-options.js';

async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * `ledger-rx submit FILE.json`: sends the `JsCommands` of the file (or stdin with `-`) to
 * `POST /v2/commands/async/submit`, with a generated `commandId` when the file has none. Prints one JSON
 * line `{"status":"accepted","commandId":…,"actAs":[…]}` once the participant accepted the command (the
 * outcome arrives on the update stream: `ledger-rx tail`). With `wait`, awaits the command's completion
 * (`submitAndTrack`: the completions are read from the ledger end before submitting) and prints
 * `{"status":"committed","commandId","updateId","completionOffset"}` (exit 0), `{"status":"failed",…, code,
 * cantonCode, message}` (exit 5) or `{"status":"unknown",…, completionsAfter}` (exit 6, after `timeoutMs`).
 * Unreadable or non-JSON input is a usage error (2); a request the client rejects before sending exits 2; a
 * server rejection 3 (code, cause and correlation id on stderr).
 */
export async function runSubmit(options: SubmitOptions, io: CliIo, stdin: Readable = process.stdin): Promise<ExitCode> {
  return runClientCommand(options.source, io, async (client, print) => {
    let text: string;
    try {
      text = options.file === '-' ? await readAll(stdin) : await readFile(options.file, 'utf8');
    } catch (error) {
      throw new UsageError(`cannot read ${options.file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw new UsageError(`${options.file} is not JSON: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new UsageError(`${options.file} must hold a JsCommands object`);
    const given = parsed as Partial<JsCommands>;
    const commands = { ...given, commandId: given.commandId || newCommandId() } as JsCommands;
    if (options.wait !== true) {
      await client.submit(commands);
      print(JSON.stringify({ status: 'accepted', commandId: commands.commandId, actAs: commands.actAs }));
      return;
    }
    try {
      const done = await submitAndTrack(client, commands, { timeoutMs: options.timeoutMs ?? 30_000 });
      print(JSON.stringify({ status: 'committed', commandId: commands.commandId, updateId: done.updateId, completionOffset: done.completionOffset }));
    } catch (error) {
      if (error instanceof CommandFailedError) {
        const { code, message } = error.status;
        print(JSON.stringify({ status: 'failed', commandId: error.commandId, submissionId: error.submissionId, code, cantonCode: error.cantonCode ?? null, message, completionOffset: error.completionOffset }));
      } else if (error instanceof CommandOutcomeUnknownError) {
        print(JSON.stringify({ status: 'unknown', commandId: error.commandId, submissionId: error.submissionId, completionsAfter: error.beginExclusive }));
      }
      throw error;
    }
  });
}
