import { Command, Option } from 'commander';
import { addSourceOptions } from '../options/add-source-options.js';
import { commandAction } from '../process/command-action.js';
import { exitCodesHelp } from '../process/exit-codes-help.js';
import { readSourceOptions } from '../options/read-source-options.js';
import { UsageError } from '../options/usage-error.js';

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];
const list = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

function parseAnnotations(values: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const v of values) {
    const eq = v.indexOf('=');
    if (eq <= 0) throw new UsageError(`--annotation must be KEY=VALUE (KEY= removes the key), got '${v}'`);
    out[v.slice(0, eq)] = v.slice(eq + 1);
  }
  return out;
}

/** `ledger-rx users update|revoke`: user management for operators. */
export function usersCommand(): Command {
  const update = new Command('update').description('Update a user: only the fields given change').argument('<user-id>', 'the user');
  addSourceOptions(update, false);
  update
    .addOption(new Option('--primary-party <party>', "the new primary party ('' clears it)"))
    .addOption(new Option('--deactivate', 'deactivate the user').conflicts('activate'))
    .addOption(new Option('--activate', 'activate the user'))
    .addOption(new Option('--annotation <key=value>', 'set an annotation; KEY= removes it (repeatable)').argParser(collect))
    .addOption(new Option('--resource-version <v>', 'fail unless the user metadata has this resource version'))
    .addOption(new Option('--identity-provider-id <id>', 'the identity provider of the user'))
    .addHelpText('after', exitCodesHelp)
    .action(
      commandAction(async (values, args, io) =>
        (await import('../ops/run-users-update.js')).runUsersUpdate(
          {
            source: readSourceOptions(values),
            userId: args[0] ?? '',
            primaryParty: str(values['primaryParty']),
            deactivated: values['deactivate'] === true ? true : values['activate'] === true ? false : undefined,
            annotations: parseAnnotations(list(values['annotation'])),
            resourceVersion: str(values['resourceVersion']),
            identityProviderId: str(values['identityProviderId']),
          },
          io,
        ),
      ),
    );

  const revoke = new Command('revoke').description('Revoke rights of a user; prints the rights actually removed').argument('<user-id>', 'the user');
  addSourceOptions(revoke, false);
  revoke
    .addOption(new Option('--act-as <party>', 'CanActAs party (repeatable)').argParser(collect))
    .addOption(new Option('--read-as <party>', 'CanReadAs party (repeatable)').argParser(collect))
    .addOption(new Option('--execute-as <party>', 'CanExecuteAs party (repeatable)').argParser(collect))
    .addOption(new Option('--act-as-any-party', 'CanActAsAnyParty'))
    .addOption(new Option('--read-as-any-party', 'CanReadAsAnyParty'))
    .addOption(new Option('--execute-as-any-party', 'CanExecuteAsAnyParty'))
    .addOption(new Option('--admin', 'ParticipantAdmin'))
    .addOption(new Option('--idp-admin', 'IdentityProviderAdmin'))
    .addOption(new Option('--identity-provider-id <id>', 'the identity provider of the user'))
    .addHelpText('after', exitCodesHelp)
    .action(
      commandAction(async (values, args, io) =>
        (await import('../ops/run-users-revoke.js')).runUsersRevoke(
          {
            source: readSourceOptions(values),
            userId: args[0] ?? '',
            actAs: list(values['actAs']),
            readAs: list(values['readAs']),
            executeAs: list(values['executeAs']),
            actAsAnyParty: values['actAsAnyParty'] === true,
            readAsAnyParty: values['readAsAnyParty'] === true,
            executeAsAnyParty: values['executeAsAnyParty'] === true,
            participantAdmin: values['admin'] === true,
            identityProviderAdmin: values['idpAdmin'] === true,
            identityProviderId: str(values['identityProviderId']),
          },
          io,
        ),
      ),
    );
  return new Command('users').description('Manage users').summary('manage users (update, revoke rights)').addCommand(update).addCommand(revoke);
}
