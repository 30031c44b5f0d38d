import type { Command } from 'commander';
import type { CliContext } from './cli-context.js';
import { processContext } from './process-context.js';

const contexts = new WeakMap<Command, CliContext>();

/** Makes `context` the {@link CliContext} of `program` and every command under it (see `commandContext`). */
export function bindCommandContext(program: Command, context: CliContext): void {
  contexts.set(program, context);
}

/** The {@link CliContext} bound to the root of `command` by `bindCommandContext`, else the process's. */
export function commandContext(command: Command): CliContext {
  let root = command;
  while (root.parent) root = root.parent;
  return contexts.get(root) ?? processContext();
}
