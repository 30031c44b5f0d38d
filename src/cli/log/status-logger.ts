import type { TailStatus } from '../../operators/tail-status.js';
import type { Logger } from './logger.js';

/**
 * An `onStatus` callback for `tailUpdates`/`readDescending` that logs each status (`retrying`,
 * `limit-lowered`, `idle-timeout-raised` and a fallback to another transport (one line: from, to, and why) as warnings, the transport
 * read over and `caught-up` once as info, `resumed` as debug) and calls `onRetry` for each retry (for the
 * `--stats` counter).
 */
export function statusLogger(logger: Logger, onRetry: () => void): (status: TailStatus) => void {
  let caughtUp = false;
  return (status) => {
    switch (status.type) {
      case 'retrying':
        onRetry();
        logger.warn({ attempt: status.attempt, delayMs: status.delayMs, err: status.error }, 'request failed; retrying');
        break;
      case 'limit-lowered':
        logger.warn({ from: status.from, to: status.to }, 'the participant answered 413: page limit lowered');
        break;
      case 'idle-timeout-raised':
        logger.warn({ from: status.from, to: status.to }, 'catch-up pages came back empty while the participant had more: idle timeout raised');
        break;
      case 'caught-up':
        if (!caughtUp) logger.info({ offset: status.offset }, 'caught up with the ledger end; tailing');
        caughtUp = true;
        break;
      case 'transport-selected':
        if (status.refused) {
          const why = status.reason ?? 'the participant refused it';
          logger.warn({ refused: status.refused.transport, reason: why, err: status.refused.error, transport: status.transport }, `fell back from ${status.refused.transport} to ${status.transport}: ${why}`);
        } else {
          const skipped = status.reason === undefined ? '' : ` (${status.reason})`;
          logger.info({ transport: status.transport, requested: status.requested, ...(status.reason === undefined ? {} : { reason: status.reason }) }, `reading over ${status.transport}${skipped}`);
        }
        break;
      case 'resumed':
        logger.debug({ fromOffset: status.fromOffset, attempt: status.attempt }, 'reading');
        break;
    }
  };
}
