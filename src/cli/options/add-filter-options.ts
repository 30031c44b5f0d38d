import { Option, type Command } from 'commander';

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

/**
 * Adds the filter flags of the streaming commands: `--party` (repeatable), `--any-party`, `--template`
 * (repeatable), `--interface` (repeatable), `--shape`, `--reassignments`, `--topology`, `--verbose`. Read
 * them back with `readFilterOptions`.
 */
export function addFilterOptions(command: Command): Command {
  return command
    .addOption(new Option('--party <party>', 'read as this party (repeatable); default: every party (--any-party)').argParser(collect))
    .addOption(new Option('--any-party', 'read as every party hosted on the participant (needs CanReadAsAnyParty)'))
    .addOption(new Option('--template <id>', "only this template, '#<package-name>:<Module>:<Entity>' (repeatable)").argParser(collect))
    .addOption(new Option('--interface <id>', "only contracts implementing this interface, with its view (repeatable)").argParser(collect))
    .addOption(new Option('--shape <shape>', 'transaction shape').choices(['acs-delta', 'ledger-effects']).default('acs-delta'))
    .addOption(new Option('--reassignments', 'include reassignments (contracts moving between synchronizers)'))
    .addOption(new Option('--topology', 'include topology events (party-to-participant authorizations)'))
    .addOption(new Option('--verbose', 'ask for verbose events (field labels in Daml values)'));
}
