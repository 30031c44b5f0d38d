import { readFile } from 'node:fs/promises';
import { SandboxError } from '../errors/sandbox-error.js';
import type { ParticipantState } from '../participant/participant-state.js';
import { loadUnzip } from './load-unzip.js';
import { readDar } from './read-dar.js';
import { uploadDar } from './upload-dar.js';

/** A DAR given to `startSandbox({ dars })` (or `ledger-rx sandbox --dar`) that could not be loaded. */
export class DarLoadError extends Error {
  override name = 'DarLoadError';
  /** The file, or `dars[<index>]` for bytes. */
  readonly dar: string;

  constructor(dar: string, message: string, options: { cause: unknown }) {
    super(`cannot load the DAR ${dar}: ${message}`, options);
    this.dar = dar;
  }
}

/**
 * Uploads the DARs of `startSandbox({ dars })` in order, as `POST /v2/dars` would with vetting on the
 * first synchronizer (docs/sandbox.md#dar-uploads). Resolves when all are stored and vetted; rejects with
 * a {@link DarLoadError} for the first file that cannot be read or that the participant would refuse
 * (its message carries the error code, the cause and the context, e.g. `DAR_PARSE_ERROR`'s reason).
 */
export async function loadDars(state: ParticipantState, dars: readonly (string | Uint8Array)[]): Promise<void> {
  for (const [index, dar] of dars.entries()) {
    const label = typeof dar === 'string' ? dar : `dars[${index}]`;
    let bytes: Uint8Array;
    try {
      bytes = typeof dar === 'string' ? await readFile(dar) : dar;
    } catch (error) {
      throw new DarLoadError(label, error instanceof Error ? error.message : String(error), { cause: error });
    }
    try {
      uploadDar(state, readDar(bytes, await loadUnzip()), { vetAllPackages: true, synchronizerId: state.synchronizers[0]?.id });
    } catch (error) {
      if (!(error instanceof SandboxError)) throw error;
      const context = error.spec.kind === 'canton' ? Object.entries(error.spec.context).map(([k, v]) => ` (${k}: ${v})`).join('') : '';
      throw new DarLoadError(label, `${error.message}${context}`, { cause: error });
    }
  }
}
