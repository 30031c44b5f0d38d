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
import type { CliContext } from './process/cli-context.js';
import { bindCommandContext } from './process/command-context.js';
import { exitCodesHelp } from './process/exit-codes-help.js';
import { processContext } from './process/process-context.js';

/**
 * Applies the exit-code conventions to `command` and every subcommand: help asked for (`--help`, `help`,
 * `--version`) → 0; usage error → 2, including a missing subcommand (`ledger-rx`, `ledger-rx vetting`: the
 * help is printed on stderr, which commander reports as `commander.help` with a non-zero exit code, then
 * an error line naming the commands). Help and errors go to the context's stdout and stderr.
 */
function applyConventions(command: Command, context: CliContext): void {
  command
    .configureOutput({ writeOut: (s) => context.stdout.write(s), writeErr: (s) => context.stderr.write(s) })
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride((err: CommanderError) => {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version') context.exit(0);
      if (err.code === 'commander.help') {
        if (err.exitCode === 0) context.exit(0);
        const names = command.commands.map((c) => c.name()).filter((n) => n !== 'help');
        context.stderr.write(`error: '${command.name()}' needs a command: ${names.join(', ')}\n`);
        context.exit(2);
      }
      if (err.code === 'commander.executeSubCommandAsync') context.exit(err.exitCode);
      context.exit(2);
    });
  for (const sub of command.commands) applyConventions(sub, context);
}

/**
 * The `ledger-rx` command line. Each command lives in its own file under `commands/`, its core in a
 * testable `run…(options, io)` function.
 * Exit codes (see `exitCodesHelp`): 0 done, 1 local failure (file, lock, database), 2 bad usage (also a
 * missing subcommand), 3 a server error that cannot be retried, 4 retries exhausted, 130 a second signal.
 * `context` is where the commands' io comes from and how a run ends: the process's by default; tests run
 * the program in process with their own.
 */
export function createProgram(context: CliContext = processContext()): Command {
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
  applyConventions(program, context);
  bindCommandContext(program, context);
  return program;
}
