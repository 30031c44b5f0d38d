import { lastValueFrom, tap } from 'rxjs';
import { allVettedPackages } from '../../operators/all-vetted-packages.js';
import type { ListVettedPackagesRequest } from '../../schemas/vetting.js';
import type { CliIo } from '../process/cli-io.js';
import type { ExitCode } from '../process/exit-code.js';
import { runClientCommand } from './run-client-command.js';
import { formatVettedPackages } from './format-vetted-packages.js';
import type { VettingListOptions } from './vetting-list-options.js';

/**
 * `ledger-rx vetting list`: every page of `POST /v2/package-vetting/list` (`allVettedPackages`: a failed page
 * is asked for again), printed as it arrives — a table per (synchronizer, participant), or with `json` one compact
 * `VettedPackages` document per line. Resolves with the exit code.
 */
export function runVettingList(options: VettingListOptions, io: CliIo): Promise<ExitCode> {
  const list = (v: readonly string[] | undefined) => (v && v.length > 0 ? [...v] : undefined);
  const packageIds = list(options.packageIds);
  const prefixes = list(options.packageNamePrefixes);
  const participants = list(options.participantIds);
  const synchronizers = list(options.synchronizerIds);
  const request: ListVettedPackagesRequest = {
    ...(packageIds || prefixes ? { packageMetadataFilter: { ...(packageIds ? { packageIds } : {}), ...(prefixes ? { packageNamePrefixes: prefixes } : {}) } } : {}),
    ...(participants || synchronizers
      ? { topologyStateFilter: { ...(participants ? { participantIds: participants } : {}), ...(synchronizers ? { synchronizerIds: synchronizers } : {}) } }
      : {}),
  };
  return runClientCommand(options.source, io, async (client, print) => {
    let first = true;
    await lastValueFrom(
      allVettedPackages(client, request).pipe(
        tap((state) => {
          if (options.json) print(JSON.stringify(state));
          else {
            print(`${first ? '' : '\n'}${formatVettedPackages(state)}`);
            first = false;
          }
        }),
      ),
      { defaultValue: undefined },
    );
  });
}
