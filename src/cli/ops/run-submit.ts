import { readFile } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { newCommandId } from '../../client/new-command-id.js';
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
 * outcome arrives on the update stream: `ledger-rx tail`). Unreadable or non-JSON input is a usage error
 * (2); a request the client rejects before sending exits 2; a server rejection 3 (code, cause and
 * correlation id on stderr).
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
    await client.submit(commands);
    print(JSON.stringify({ status: 'accepted', commandId: commands.commandId, actAs: commands.actAs }));
  });
}
