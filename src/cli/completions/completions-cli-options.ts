import type { Transport } from '../../updates/transport.js';
import type { FromOffset } from '../options/parse-from-offset.js';
import type { SourceOptions } from '../options/source-options.js';
import type { LogLevel } from '../log/log-level.js';
import type { OutputFormat } from '../output/output-format.js';

/** Options of `runCompletions` (`ledger-rx completions`). */
export interface CompletionsCliOptions {
  readonly source: SourceOptions;
  /** `--party` (repeatable): whose completions; none means every party (needs CanReadAsAnyParty). */
  readonly parties: readonly string[];
  /** `--from`: after an offset, `begin` or `end` (the default: only completions still to come). */
  readonly from: FromOffset;
  /** `--transport auto|websocket|list`. Default `auto` (websocket, falling back to list: docs/transports.md). */
  readonly transport?: Extract<Transport, 'websocket' | 'list' | 'auto'>;
  /** `--format`; default chosen by `chooseOutputFormat` (pretty on a terminal). */
  readonly format?: OutputFormat;
  /** `--log-level` of the logs on stderr (retries, the transport). Default `info`. */
  readonly logLevel?: LogLevel;
}
