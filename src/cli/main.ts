#!/usr/bin/env node
import { Command } from 'commander';
import { sandboxCommand } from './commands/sandbox-command.js';

/**
 * The `ledger-rx` command line. Each command lives in its own file under `commands/`.
 * Exit codes: 0 done, 1 error, 2 bad usage, 3 a server error that cannot be retried, 4 retries exhausted.
 */
export function createProgram(): Command {
  const program = new Command('ledger-rx')
    .description('Tail, ingest and operate a Canton participant through the JSON Ledger API v2')
    .showHelpAfterError()
    .exitOverride((err) => {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') process.exit(0);
      process.exit(2);
    });
  program.addCommand(sandboxCommand());
  return program;
}

createProgram()
  .parseAsync(process.argv)
  .catch((error: unknown) => {
    process.stderr.write(`ledger-rx: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
