import { DarError } from '../../daml/dar-error.js';
import { readDarFile, type Dar } from '../../daml/read-dar.js';

/**
 * Reads the DAR files a command was given (`codegen`, `export --dar`), in order. A file that is not a
 * readable DAR rejects with its `DarError`, the message prefixed with the file's path (exit 1); other
 * failures (a missing file) reject as they are.
 */
export async function readDarFiles(files: readonly string[]): Promise<Dar[]> {
  const dars: Dar[] = [];
  for (const file of files) {
    try {
      dars.push(await readDarFile(file));
    } catch (error) {
      if (error instanceof DarError) throw new DarError(error.code, `${file}: ${error.message}`, { ...(error.entry === undefined ? {} : { entry: error.entry }), cause: error });
      throw error;
    }
  }
  return dars;
}
