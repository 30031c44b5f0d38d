import type { SourceOptions } from '../options/source-options.js';
import type { CliIo } from '../process/cli-io.js';
import type { StreamingRun } from '../process/streaming-run.js';
import type { LedgerSource } from './ledger-source.js';
import { openLedgerSource } from './open-ledger-source.js';

/**
 * Opens the participant of a streaming command (`tail`, `ingest`, `publish`) inside its run: nothing is
 * opened after a stop; the source is closed at the end of the run and the run's monitor watches its ledger
 * end. Resolves with the opened source; throws `StopRequested` when a stop came meanwhile, and what
 * `openLedgerSource` throws.
 */
export async function openRunSource(run: StreamingRun, io: CliIo, options: SourceOptions, validate: boolean): Promise<LedgerSource> {
  run.stops.throwIfStopped();
  const source = await openLedgerSource(options, { env: io.env, logger: run.logger, validateResponses: validate });
  run.release(() => source.close());
  run.stops.throwIfStopped();
  run.monitor.watchLedgerEnd(() => source.client.ledgerEnd());
  return source;
}
