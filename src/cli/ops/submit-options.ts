import type { SourceOptions } from '../options/source-options.js';

/** Options of `runSubmit` (`ledger-rx submit FILE.json`). */
export interface SubmitOptions {
  readonly source: SourceOptions;
  /** A JSON file holding a `JsCommands` object, or `-` for stdin. */
  readonly file: string;
  /** `--wait`: await the command's completion (`submitAndTrack`) and print its outcome. */
  readonly wait?: boolean;
  /** `--timeout MS`: how long `--wait` waits for the completion. Default 30 000. */
  readonly timeoutMs?: number;
}
