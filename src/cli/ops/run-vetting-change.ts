import type { UpdateVettedPackagesForceFlag, UpdateVettedPackagesRequest } from '../../schemas/vetting.js';
import type { CliIo } from '../process/cli-io.js';
import type { ExitCode } from '../process/exit-code.js';
import { runClientCommand } from './run-client-command.js';
import { diffVettedPackages } from './diff-vetted-packages.js';
import type { VettingChangeOptions, VettingForceFlag } from './vetting-change-options.js';

const forceFlags: Readonly<Record<VettingForceFlag, UpdateVettedPackagesForceFlag>> = {
  'allow-vet-incompatible-upgrades': 'UPDATE_VETTED_PACKAGES_FORCE_FLAG_ALLOW_VET_INCOMPATIBLE_UPGRADES',
  'allow-unvetted-dependencies': 'UPDATE_VETTED_PACKAGES_FORCE_FLAG_ALLOW_UNVETTED_DEPENDENCIES',
};

/**
 * `ledger-rx vetting vet|unvet [--dry-run]`: one `Vet` or `Unvet` change of this participant's vetting
 * state (`updateVettedPackages`). Prints `dry run: ` (when `dryRun`) and the synchronizer, the serial
 * change and the per-package diff (`+` vetted, `-` unvetted, `~` bounds changed), or with `json` the
 * server's response. Resolves with the exit code (3 for a rejected change, with the code, the cause and
 * the correlation id on stderr).
 */
export function runVettingChange(options: VettingChangeOptions, io: CliIo): Promise<ExitCode> {
  const packages = [...options.packages];
  const request: UpdateVettedPackagesRequest = {
    changes: [
      {
        operation:
          options.operation === 'vet'
            ? {
                Vet: {
                  value: {
                    packages,
                    ...(options.validFrom === undefined ? {} : { newValidFromInclusive: options.validFrom }),
                    ...(options.validUntil === undefined ? {} : { newValidUntilExclusive: options.validUntil }),
                  },
                },
              }
            : { Unvet: { value: { packages } } },
      },
    ],
    dryRun: options.dryRun === true,
    ...(options.synchronizerId ? { synchronizerId: options.synchronizerId } : {}),
    ...(options.expectSerial === undefined
      ? {}
      : { expectedTopologySerial: { serial: options.expectSerial === 'none' ? { NoPrior: {} } : { Prior: { value: options.expectSerial } } } }),
    ...(options.force && options.force.length > 0 ? { updateVettedPackagesForceFlags: options.force.map((f) => forceFlags[f]) } : {}),
  };
  return runClientCommand(options.source, io, async (client, print) => {
    const response = await client.updateVettedPackages(request, options.endpoint === undefined ? {} : { endpoint: options.endpoint });
    if (options.json) {
      print(JSON.stringify(response, null, 2));
      return;
    }
    const after = response.newVettedPackages;
    const before = response.pastVettedPackages;
    print(
      `${options.dryRun ? 'dry run (nothing changed): ' : ''}${options.operation} on synchronizer ${after.synchronizerId}, ` +
        `serial ${before?.topologySerial ?? 'none'} → ${after.topologySerial}`,
    );
    for (const line of diffVettedPackages(before, after)) print(`  ${line}`);
  });
}
