import type { LedgerClient } from '../client/ledger-client.js';
import type { Logger } from './logger.js';
import type { ToOffset } from './parse-to-offset.js';

/**
 * The inclusive end of a bounded read: `--to OFFSET` as given, `--to end` as the ledger end at this moment
 * (logged), `undefined` without `--to` (tail forever). A result of 0 means the ledger is empty.
 */
export async function resolveEndOffset(client: Pick<LedgerClient, 'ledgerEnd'>, to: ToOffset | undefined, logger: Logger, what: string): Promise<number | undefined> {
  if (to !== 'end') return to;
  const endInclusive = (await client.ledgerEnd()).offset ?? 0;
  logger.info({ endInclusive }, `${what} up to the ledger end as of now`);
  return endInclusive;
}
