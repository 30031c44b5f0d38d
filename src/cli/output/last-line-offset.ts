import type { JsGetUpdatesResponse } from '../../schemas/updates.js';
import { updateOffset } from '../../updates/update-offset.js';
import { readLastLine } from './read-last-line.js';

/**
 * The offset of the last complete line of the NDJSON output file `path` (each line an element of
 * `POST /v2/updates` as the server sent it; see `updateOffset`), or `undefined` when the file is missing,
 * empty, or its last line carries no offset. Rejects with an `Error` naming the file when the last line is
 * not JSON: that file was not written by `tail`, and resuming after it would be a guess.
 */
export async function lastLineOffset(path: string): Promise<number | undefined> {
  const line = await readLastLine(path);
  if (line === undefined || line.trim() === '') return undefined;
  let element: unknown;
  try {
    element = JSON.parse(line);
  } catch {
    throw new Error(`cannot resume: the last line of ${path} is not an update element (JSON); move the file away or pass another --out`);
  }
  return updateOffset(element as JsGetUpdatesResponse);
}
