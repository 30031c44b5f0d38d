import type { JsGetActiveContractsResponse } from '../../schemas/index.js';
import type { HumanLoggerOptions } from '../log/create-human-logger.js';
import type { CliIo } from '../process/cli-io.js';
import { terminalView } from '../pretty/terminal-view.js';
import { contractEntryRow } from './contract-entry-row.js';

/** The human log lines' colours of `acs` (for `createCommandLogger`), as `tail`'s and `completions`'. */
export function logPaint(io: CliIo): HumanLoggerOptions['paint'] {
  return terminalView(io).logPaint;
}

/**
 * The human view of `acs`: each snapshot entry as a line (`contractEntryRow`, aligned, fitted and coloured by
 * the terminal view). Loads the terminal libraries: import this module only for the human view.
 */
export function contractEntryRenderer(io: CliIo): (entry: JsGetActiveContractsResponse) => string {
  const draw = terminalView(io).rows();
  return (entry) => draw(contractEntryRow(entry));
}
