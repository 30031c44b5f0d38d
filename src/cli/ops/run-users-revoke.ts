import type { CliIo } from '../process/cli-io.js';
import { ExitCode } from '../process/exit-code.js';
import { runClientCommand } from './run-client-command.js';
import { formatRight } from './format-right.js';
import { rightsOf } from './rights-of.js';
import type { UsersRevokeOptions } from './users-revoke-options.js';

/**
 * `ledger-rx users revoke USER`: `PATCH /v2/users/{id}/rights` with the rights named by the flags;
 * prints the rights actually removed, one per line (`(none: the user had none of them)` otherwise).
 * No right named is a usage error (2); a server rejection exit 3.
 */
export async function runUsersRevoke(options: UsersRevokeOptions, io: CliIo): Promise<ExitCode> {
  const rights = rightsOf(options);
  if (rights.length === 0) {
    io.stderr.write('error: name the rights to revoke: --act-as, --read-as, --execute-as, --read-as-any-party, --admin, ...\n');
    return ExitCode.USAGE;
  }
  return runClientCommand(options.source, io, async (client, print) => {
    const response = await client.revokeUserRights(options.userId, {
      userId: options.userId,
      rights,
      ...(options.identityProviderId === undefined ? {} : { identityProviderId: options.identityProviderId }),
    });
    const revoked = response.newlyRevokedRights ?? [];
    if (revoked.length === 0) print('(none: the user had none of them)');
    for (const r of revoked) print(`revoked ${formatRight(r)}`);
  });
}
