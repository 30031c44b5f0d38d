import { Command, type CommanderError } from 'commander';
import { acsCommand } from './commands/acs-command.js';
import { codegenCommand } from './commands/codegen-command.js';
import { completionsCommand } from './commands/completions-command.js';
import { exportCommand } from './commands/export-command.js';
import { ingestCommand } from './commands/ingest-command.js';
import { publishCommand } from './commands/publish-command.js';
import { sandboxCommand } from './commands/sandbox-command.js';
import { sqlCommand } from './commands/sql-command.js';
import { storeCommand } from './commands/store-command.js';
import { submitCommand } from './commands/submit-command.js';
import { tailCommand } from './commands/tail-command.js';
import { usersCommand } from './commands/users-command.js';
import { vettingCommand } from './commands/vetting-command.js';
import { cliVersion } from './cli-version.js';
import { exitCodesHelp } from './process/exit-codes-help.js';

/**
 * Applies the exit-code conventions to `command` and every subcommand: help asked for (`--help`, `help`,
 * `--version`) → 0; usage error → 2, including a missing subcommand (`ledger-rx`, `ledger-rx vetting`: the
 * help is printed on stderr, which commander reports as `commander.help` with a non-zero exit code, then
 * an error line naming the commands).
 */
function applyConventions(command: Command): void {
  command.showHelpAfterError('(run with --help for usage)').exitOverride((err: CommanderError) => {
    if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version') process.exit(0);
    if (err.code === 'commander.help') {
      if (err.exitCode === 0) process.exit(0);
      const names = command.commands.map((c) => c.name()).filter((n) => n !== 'help');
      process.stderr.write(`error: '${command.name()}' needs a command: ${names.join(', ')}\n`);
      process.exit(2);
    }
    if (err.code === 'commander.executeSubCommandAsync') process.exit(err.exitCode);
    process.exit(2);
  });
  for (const sub of command.commands) applyConventions(sub);
}

/**
 * The `ledger-rx` command line. Each command lives in its own file under `commands/`, its core in a
 * testable `run…(options, io)` function.
 * Exit codes (see `exitCodesHelp`): 0 done, 1 local failure (file, lock, database), 2 bad usage (also a
 * missing subcommand), 3 a server error that cannot be retried, 4 retries exhausted, 130 a second signal.
 */
export function createProgram(): Command {
  const program = new Command('ledger-rx')
    .description('Tail, ingest and operate a Canton participant through the JSON Ledger API v2')
    .version(cliVersion)
    .addHelpText('after', exitCodesHelp);
  program.addCommand(tailCommand());
  program.addCommand(ingestCommand());
  program.addCommand(publishCommand());
  program.addCommand(exportCommand());
  program.addCommand(sqlCommand());
  program.addCommand(storeCommand());
  program.addCommand(vettingCommand());
  program.addCommand(usersCommand());
  program.addCommand(submitCommand());
  program.addCommand(acsCommand());
  program.addCommand(completionsCommand());
  program.addCommand(sandboxCommand());
  program.addCommand(codegenCommand());
  applyConventions(program);
  return program;
}
