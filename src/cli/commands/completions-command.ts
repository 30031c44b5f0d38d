import { Command, Option } from 'commander';
import { addFormatOption } from '../options/add-format-option.js';
import { addSourceOptions } from '../options/add-source-options.js';
import { parseFromOffset } from '../options/parse-from-offset.js';
import { readFormatOption } from '../options/read-format-option.js';
import { readSourceOptions } from '../options/read-source-options.js';
import { logLevels, type LogLevel } from '../log/log-level.js';
import { commandAction } from '../process/command-action.js';
import { exitCodesHelp } from '../process/exit-codes-help.js';

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

/** `ledger-rx completions`: the commander layer over `runCompletions`. */
export function completionsCommand(): Command {
  const command = new Command('completions')
    .description('Tail the completions of submitted commands (the outcome of each: committed at an offset, or failed and why) until SIGINT/SIGTERM')
    .summary('tail command completions')
    .addOption(new Option('--party <party>', 'completions of commands acting as this party (repeatable); default: every party').argParser(collect))
    .addOption(new Option('--from <offset>', "start after this offset, 'begin', or 'end' (only completions to come)").default('end'));
  // --transport comes with the source flags of the reading commands: auto (websocket, then list), websocket or list; completions have no pages
  addSourceOptions(command, 'completions');
  addFormatOption(command);
  command.addOption(new Option('--log-level <level>', 'log level of the logs on stderr').choices(logLevels).default('info'));
  command.addHelpText('after', exitCodesHelp);
  command.action(
    commandAction(async (values, _args, io) => {
      const parties = Array.isArray(values['party']) ? (values['party'] as string[]) : [];
      const format = readFormatOption(values);
      const { runCompletions } = await import('../completions/run-completions.js');
      return runCompletions(
        {
          source: readSourceOptions(values),
          parties,
          from: parseFromOffset(String(values['from'])),
          transport: values['transport'] === 'list' || values['transport'] === 'websocket' ? values['transport'] : 'auto',
          ...(format === undefined ? {} : { format }),
          logLevel: values['logLevel'] as LogLevel,
        },
        io,
      );
    }),
  );
  return command;
}
