import type { z } from 'zod';
import { JsCommands } from '../../schemas/index.js';
import { checkDeduplicationPeriod } from './check-deduplication-period.js';
import { checkInstant } from './check-instant.js';
import { checkMinLedgerTime } from './check-min-ledger-time.js';
import { checkPrefetchLimits } from './check-prefetch-limits.js';
import { checkTapsMaxPasses } from './check-taps-max-passes.js';
import { parseRequest } from './parse-request.js';
import { requireNonEmptyArray } from './require-non-empty-array.js';
import { requireNonEmptyString } from './require-non-empty-string.js';

/**
 * Validates the body of `POST /v2/commands/async/submit` before it is sent: the `JsCommands` schema, then
 * `commands`, `actAs` (and each party in it) and `commandId` non-empty, `minLedgerTimeAbs` an instant,
 * `minLedgerTimeAbs`/`minLedgerTimeRel` exclusive, `tapsMaxPasses >= 1`, a non-negative deduplication
 * period and prefetch limits `>= 1`.
 *
 * @returns the parsed request (for reading only).
 * @throws InvalidArgumentError for the first violation.
 */
export function validateSubmitRequest(request: unknown): z.output<typeof JsCommands> {
  const parsed = parseRequest(JsCommands, request);
  requireNonEmptyArray(parsed.commands, 'commands', 'command');
  requireNonEmptyArray(parsed.actAs, 'actAs', 'party');
  parsed.actAs.forEach((party, i) => requireNonEmptyString(party, `actAs[${i}]`));
  requireNonEmptyString(parsed.commandId, 'commandId');
  checkInstant(parsed.minLedgerTimeAbs, 'minLedgerTimeAbs');
  checkMinLedgerTime(parsed);
  checkTapsMaxPasses(parsed.tapsMaxPasses);
  checkDeduplicationPeriod(parsed.deduplicationPeriod);
  checkPrefetchLimits(parsed.prefetchContractKeys);
  return parsed;
}
