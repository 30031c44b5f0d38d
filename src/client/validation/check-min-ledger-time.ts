import { InvalidArgumentError } from '../../errors/index.js';

/**
 * `minLedgerTimeAbs` and `minLedgerTimeRel` are mutually exclusive: the server rejects a submission that
 * sets both ("min_ledger_time_abs cannot be specified at the same time as min_ledger_time_rel").
 * `null` counts as not set.
 *
 * @throws InvalidArgumentError('minLedgerTimeRel', …) when both are set.
 */
export function checkMinLedgerTime(commands: { readonly minLedgerTimeAbs?: unknown; readonly minLedgerTimeRel?: unknown }): void {
  if (commands.minLedgerTimeAbs != null && commands.minLedgerTimeRel != null) {
    throw new InvalidArgumentError('minLedgerTimeRel', 'cannot be set together with minLedgerTimeAbs');
  }
}
