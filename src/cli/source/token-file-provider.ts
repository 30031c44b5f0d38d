import { readFile } from 'node:fs/promises';

/**
 * A token provider for `createLedgerClient` that reads `path` before every request, so a token rotated on
 * disk (by a sidecar, a cron job, Kubernetes) is picked up without a restart. Surrounding whitespace is
 * trimmed. Rejects with an `Error` naming the file (never its content) when it cannot be read.
 */
export function tokenFileProvider(path: string): () => Promise<string> {
  return async () => {
    try {
      return (await readFile(path, 'utf8')).trim();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'unknown error';
      throw new Error(`cannot read the token file ${path} (${code})`, { cause: error });
    }
  };
}
