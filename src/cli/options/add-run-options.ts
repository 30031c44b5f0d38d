import { Option, type Command } from 'commander';
import { logLevels } from '../log/log-level.js';

/**
 * Adds the flags shared by the long-running readers (`tail`, `ingest`) about how they run and report:
 * `--stats`, `--no-progress`, `--no-validate`, `--log-level` and `--logger`. Each command reads them back
 * with its own options reader (`processIoWithLogger` takes `--logger`).
 */
export function addRunOptions(command: Command): Command {
  return command
    .addOption(new Option('--stats', 'print a JSON summary on stderr at exit'))
    .addOption(new Option('--no-progress', 'no live progress line on stderr (shown only on a terminal anyway)'))
    .addOption(new Option('--no-validate', 'skip the schema validation of each element (for a trusted participant; faster)'))
    .addOption(new Option('--log-level <level>', 'log level of the JSON logs on stderr').choices(logLevels).default('info'))
    .addOption(
      new Option('--logger <module>', "log through this ES module's `logger` or `createLogger({ level })` (e.g. a pino instance) instead of JSON lines on stderr"),
    );
}
