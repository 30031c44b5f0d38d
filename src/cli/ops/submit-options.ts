import type { SourceOptions } from '../options/source-options.js';

/** Options of `runSubmit` (`ledger-rx submit FILE.json`). */
export interface SubmitOptions {
  readonly source: SourceOptions;
  /** A JSON file holding a `JsCommands` object, or `-` for stdin. */
  readonly file: string;
}
