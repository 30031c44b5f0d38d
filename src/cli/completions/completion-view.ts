import type { CompletionStreamResponse } from '../../schemas/index.js';
import type { HumanLoggerOptions } from '../log/create-human-logger.js';
import type { CliIo } from '../process/cli-io.js';
import { terminalView } from '../pretty/terminal-view.js';
import { completionRow } from './completion-row.js';

/** The human log lines' colours of `completions` (for `createCommandLogger`). */
export function logPaint(io: CliIo): HumanLoggerOptions['paint'] {
  return terminalView(io).logPaint;
}

/**
 * The human view of `completions`: each completion as a line (`completionRow`, aligned, fitted and coloured
 * by the terminal view); a checkpoint gives `''` (the caller drops checkpoints first). Loads the terminal
 * libraries: import this module only for the human view.
 */
export function completionRenderer(io: CliIo): (element: CompletionStreamResponse) => string {
  const draw = terminalView(io).rows();
  return (element) => {
    const row = completionRow(element);
    return row === undefined ? '' : draw(row);
  };
}
