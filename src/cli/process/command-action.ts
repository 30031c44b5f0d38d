import type { Command } from 'commander';
import type { CliIo } from './cli-io.js';
import { commandContext } from './command-context.js';
import { describeError } from './describe-error.js';
import { exitCodeFor } from './exit-code-for.js';
import type { ExitCode } from './exit-code.js';

/**
 * Wraps the core of a command as a commander action: `run` gets the command's option values, its
 * positional arguments (a variadic argument flattened in place) and the io of the run (from the program's
 * `CliContext`, the process's by default), and resolves with an exit code, which goes to the context's
 * `done`. An error thrown by `run` (a `UsageError` while reading the flags, ...) is printed with
 * `describeError` on the context's stderr and mapped with `exitCodeFor`.
 */
export function commandAction(
  run: (values: Readonly<Record<string, unknown>>, args: readonly string[], io: CliIo) => Promise<ExitCode>,
): (...args: unknown[]) => Promise<void> {
  return async (...args: unknown[]) => {
    const command = args[args.length - 1] as Command;
    const context = commandContext(command);
    let code: number;
    try {
      const positional = (command.processedArgs as unknown[]).flat().filter((a): a is string => typeof a === 'string');
      const values = command.opts();
      code = await run(values, positional, await context.io(values));
    } catch (error) {
      context.stderr.write(`${describeError(error)}\n`);
      code = exitCodeFor(error);
    }
    context.done(code);
  };
}
