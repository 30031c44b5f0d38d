import { Command } from 'commander';
import { addSourceOptions } from '../options/add-source-options.js';
import { commandAction } from '../process/command-action.js';
import { exitCodesHelp } from '../process/exit-codes-help.js';
import { parseIntegerFlag } from '../options/parse-integer-flag.js';
import { readSourceOptions } from '../options/read-source-options.js';

/** `ledger-rx submit FILE.json`: submits the commands of a JSON file. */
export function submitCommand(): Command {
  const command = new Command('submit')
    .description('Submit the JsCommands of a JSON file (or - for stdin) to POST /v2/commands/async/submit; a missing commandId is generated')
    .summary('submit commands from a JSON file')
    .argument('<file>', 'JSON file with a JsCommands object, or - for stdin')
    .option('--wait', "await the command's completion and print its outcome: committed (exit 0), failed (5) or unknown (6)")
    .option('--timeout <ms>', 'with --wait: how long to wait for the completion', '30000');
  addSourceOptions(command, false);
  command.addHelpText(
    'after',
    `
Example file:
  {"actAs": ["Alice::1220…"], "userId": "alice",
   "commands": [{"CreateCommand": {"templateId": "#ledger-rx-demo:Iou:Iou",
     "createArguments": {"issuer": "Alice::1220…", "owner": "Alice::1220…", "currency": "USD", "amount": "10.0", "observers": []}}}]}
${exitCodesHelp}`,
  );
  command.action(
    commandAction(async (values, args, io) =>
      (await import('../ops/run-submit.js')).runSubmit(
        {
          source: readSourceOptions(values),
          file: args[0] ?? '-',
          wait: values['wait'] === true,
          timeoutMs: parseIntegerFlag('--timeout', String(values['timeout']), 1),
        },
        io,
      ),
    ),
  );
  return command;
}
