import type { Transport } from '../../updates/transport.js';
import type { FilterOptions } from '../options/filter-options.js';
import type { SourceOptions } from '../options/source-options.js';
import type { OutputFormat } from '../output/output-format.js';

/** Options of `runAcs` (`ledger-rx acs`). */
export interface AcsOptions {
  readonly source: SourceOptions;
  /** Which contracts: the filter flags of `tail` (parties, templates, interfaces; the shape does not apply). */
  readonly filter: FilterOptions;
  /** `--at OFFSET`: the snapshot's offset. Default: the ledger end. */
  readonly at?: number;
  /** `--transport`: how the snapshot is read. Default `websocket`. */
  readonly transport?: Exclude<Transport, 'auto'>;
  /** `--format`; default chosen by `chooseOutputFormat` (pretty on a terminal). */
  readonly format?: OutputFormat;
}
