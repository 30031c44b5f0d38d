import type { Command } from 'commander';
import { describeError } from './describe-error.js';
import { exitCodeFor } from './exit-code-for.js';
import type { ExitCode } from './exit-code.js';

/**
 * Wraps the core of a command as a commander action: `run` gets the command's option values and its
 * positional arguments (a variadic argument flattened in place) and resolves with an exit code. The code
 * becomes `process.exitCode`; an error thrown by `run` (a `UsageError` while reading the flags, ...) is
 * printed with `describeError` and mapped with `exitCodeFor`. Once the action is done the process exits even if a stray handle lingers (after a
 * short grace period, with an unreferenced timer).
 */
export function commandAction(
  run: (values: Readonly<Record<string, unknown>>, args: readonly string[]) => Promise<ExitCode>,
): (...args: unknown[]) => Promise<void> {
  return async (...args: unknown[]) => {
    const command = args[args.length - 1] as Command;
    let code: number;
    try {
      const positional = (command.processedArgs as unknown[]).flat().filter((a): a is string => typeof a === 'string');
      code = await run(command.opts(), positional);
    } catch (error) {
      process.stderr.write(`${describeError(error)}\n`);
      code = exitCodeFor(error);
    }
    process.exitCode = code;
    setTimeout(() => process.exit(code), 2_000).unref();
  };
}
