import { Command, Option } from 'commander';
import { addFilterOptions } from '../options/add-filter-options.js';
import { addFormatOption } from '../options/add-format-option.js';
import { addSourceOptions } from '../options/add-source-options.js';
import { parseIntegerFlag } from '../options/parse-integer-flag.js';
import { readFilterOptions } from '../options/read-filter-options.js';
import { readFormatOption } from '../options/read-format-option.js';
import { readSourceOptions } from '../options/read-source-options.js';
import { commandAction } from '../process/command-action.js';
import { exitCodesHelp } from '../process/exit-codes-help.js';

/** `ledger-rx acs`: the commander layer over `runAcs`. */
export function acsCommand(): Command {
  const command = new Command('acs')
    .description('Print the active contracts at an offset (default: the ledger end), one per line: NDJSON as the participant sends them, or the human view')
    .summary('print the active contracts at an offset')
    .addOption(new Option('--at <offset>', 'the snapshot offset (between the pruning offset and the ledger end)').default(undefined, 'the ledger end'));
  // --transport comes with the source flags of the reading commands (auto: the WebSocket)
  addSourceOptions(command, true);
  addFilterOptions(command);
  addFormatOption(command);
  command.addHelpText(
    'after',
    `
The offset used is printed on stderr with the count ("1234 entries at offset 5678"); read the updates after it
with: ledger-rx tail --from 5678 (same filter flags).
${exitCodesHelp}`,
  );
  command.action(
    commandAction(async (values, _args, io) => {
      const at = values['at'];
      const transport = values['transport'];
      const format = readFormatOption(values);
      const { runAcs } = await import('../acs/run-acs.js');
      return runAcs(
        {
          source: readSourceOptions(values),
          filter: readFilterOptions(values),
          ...(typeof at === 'string' ? { at: parseIntegerFlag('--at', at, 0) } : {}),
          ...(transport === 'page' || transport === 'list' ? { transport } : {}),
          ...(format === undefined ? {} : { format }),
        },
        io,
      );
    }),
  );
  return command;
}
