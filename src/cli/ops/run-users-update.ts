import { fieldMask } from '../../client/unary/field-mask.js';
import type { UserInput } from '../../schemas/users.js';
import type { CliIo } from '../process/cli-io.js';
import { ExitCode } from '../process/exit-code.js';
import { runClientCommand } from './run-client-command.js';
import type { UsersUpdateOptions } from './users-update-options.js';

/**
 * `ledger-rx users update USER`: `PATCH /v2/users/{id}` with the fields given and the matching update
 * mask; prints the whole user after the update as JSON. Resolves with the exit code; nothing to update is
 * a usage error (2), a server rejection (unknown user, stale resource version) exit 3.
 */
export async function runUsersUpdate(options: UsersUpdateOptions, io: CliIo): Promise<ExitCode> {
  const annotations = options.annotations && Object.keys(options.annotations).length > 0 ? options.annotations : undefined;
  const user: UserInput = {
    id: options.userId,
    ...(options.primaryParty === undefined ? {} : { primaryParty: options.primaryParty }),
    ...(options.deactivated === undefined ? {} : { isDeactivated: options.deactivated }),
    ...(options.identityProviderId === undefined ? {} : { identityProviderId: options.identityProviderId }),
    ...(annotations || options.resourceVersion !== undefined
      ? { metadata: { ...(annotations ? { annotations: { ...annotations } } : {}), resourceVersion: options.resourceVersion ?? '' } }
      : {}),
  };
  const mask = fieldMask(user);
  if (mask.paths.length === 0) {
    io.stderr.write('error: nothing to update: give --primary-party, --deactivate/--activate or --annotation\n');
    return ExitCode.USAGE;
  }
  return runClientCommand(options.source, io, async (client, print) => {
    const response = await client.updateUser(options.userId, { user, updateMask: mask });
    print(JSON.stringify(response.user, null, 2));
  });
}
