import type { OutputFormat } from './output-format.js';

/**
 * The format to write in (a pure function): the one `--format` names; without it, `pretty` when the data
 * goes to stdout (no `--out`, or `--out -`) and stdout is a terminal, else `ndjson` — so a pipe or a file
 * gets the wire JSON byte for byte, as before the human view existed.
 */
export function chooseOutputFormat(flag: OutputFormat | undefined, facts: { readonly stdoutIsTTY: boolean; readonly out: string | undefined }): OutputFormat {
  if (flag !== undefined) return flag;
  return (facts.out === undefined || facts.out === '-') && facts.stdoutIsTTY ? 'pretty' : 'ndjson';
}
