import type { unzipSync } from 'fflate';

let loaded: Promise<typeof unzipSync> | undefined;

/**
 * fflate's `unzipSync`, imported at the first DAR upload rather than when the sandbox loads: a sandbox that
 * never receives a DAR does not need fflate (docs/packaging.md, the sandbox row).
 */
export function loadUnzip(): Promise<typeof unzipSync> {
  return (loaded ??= import('fflate').then((m) => m.unzipSync));
}
