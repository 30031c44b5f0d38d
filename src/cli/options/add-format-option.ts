import { Option, type Command } from 'commander';
import { outputFormats } from '../output/output-format.js';

/**
 * Adds `--format pretty|ndjson` to a command that writes elements (`tail`; `acs` and `completions` the
 * same way). Without it the format is chosen by `chooseOutputFormat`: the human view on a terminal, NDJSON
 * elsewhere. Read it back with `readFormatOption`.
 */
export function addFormatOption(command: Command): Command {
  return command.addOption(
    new Option('--format <format>', 'pretty: one aligned, coloured line per update, for people; ndjson: the elements as the API returns them').choices(
      outputFormats,
    ).default(undefined, 'pretty on a terminal, else ndjson'),
  );
}
