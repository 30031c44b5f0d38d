import { Command, Option } from 'commander';
import { addSourceOptions } from '../options/add-source-options.js';
import { commandAction } from '../process/command-action.js';
import { exitCodesHelp } from '../process/exit-codes-help.js';
import { parseIntegerFlag } from '../options/parse-integer-flag.js';
import { parsePackageRef } from '../ops/parse-package-ref.js';
import type { VettingForceFlag } from '../ops/vetting-change-options.js';
import { readSourceOptions } from '../options/read-source-options.js';
import { UsageError } from '../options/usage-error.js';

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];
const list = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

function changeCommand(operation: 'vet' | 'unvet'): Command {
  const command = new Command(operation)
    .description(operation === 'vet' ? 'Vet packages on this participant (allow them in transactions)' : 'Unvet packages on this participant')
    .argument('<package...>', 'NAME (every version), NAME@VERSION, or a 64-hex package id');
  addSourceOptions(command, false);
  if (operation === 'vet') {
    command
      .addOption(new Option('--valid-from <time>', 'vetted from this instant (RFC 3339); default: unbounded'))
      .addOption(new Option('--valid-until <time>', 'vetted until this instant, exclusive; default: unbounded'));
  }
  command
    .addOption(new Option('--synchronizer <id>', 'the synchronizer (default: the participant picks it)'))
    .addOption(new Option('--expect-serial <n>', "fail unless the vetting state has this topology serial ('none': no state yet)"))
    .addOption(new Option('--force <flag>', 'allow-vet-incompatible-upgrades | allow-unvetted-dependencies (repeatable)').argParser(collect))
    .addOption(new Option('--dry-run', 'check and preview the change without applying it'))
    .addOption(new Option('--endpoint <route>', 'update: POST /v2/package-vetting/update; deprecated: POST /v2/package-vetting').choices(['update', 'deprecated']))
    .addOption(new Option('--json', 'print the server response as JSON'))
    .addHelpText('after', exitCodesHelp)
    .action(
      commandAction(async (values, args, io) => {
        const serial = str(values['expectSerial']);
        const force = list(values['force']);
        for (const f of force) {
          if (f !== 'allow-vet-incompatible-upgrades' && f !== 'allow-unvetted-dependencies') {
            throw new UsageError(`--force must be allow-vet-incompatible-upgrades or allow-unvetted-dependencies, got '${f}'`);
          }
        }
        const { runVettingChange } = await import('../ops/run-vetting-change.js');
        return runVettingChange(
          {
            source: readSourceOptions(values),
            operation,
            packages: args.map(parsePackageRef),
            validFrom: str(values['validFrom']),
            validUntil: str(values['validUntil']),
            synchronizerId: str(values['synchronizer']),
            expectSerial: serial === undefined ? undefined : serial === 'none' ? 'none' : parseIntegerFlag('--expect-serial', serial, 0),
            force: force as VettingForceFlag[],
            dryRun: values['dryRun'] === true,
            endpoint: values['endpoint'] === 'update' ? 'update' : values['endpoint'] === 'deprecated' ? 'deprecated' : undefined,
            json: values['json'] === true,
          },
          io,
        );
      }),
    );
  return command;
}

/** `ledger-rx vetting list|vet|unvet`: the package-vetting state of the participant. */
export function vettingCommand(): Command {
  const listCommand = new Command('list').description('List the vetted packages per synchronizer and participant (every page)');
  addSourceOptions(listCommand, false);
  listCommand
    .addOption(new Option('--package-id <id>', 'only this package id (repeatable)').argParser(collect))
    .addOption(new Option('--package-name-prefix <prefix>', 'only package names starting with this (repeatable)').argParser(collect))
    .addOption(new Option('--participant <id>', 'only this participant (repeatable)').argParser(collect))
    .addOption(new Option('--synchronizer <id>', 'only this synchronizer (repeatable)').argParser(collect))
    .addOption(new Option('--json', 'one VettedPackages JSON document per line'))
    .addHelpText('after', exitCodesHelp)
    .action(
      commandAction(async (values, _args, io) =>
        (await import('../ops/run-vetting-list.js')).runVettingList(
          {
            source: readSourceOptions(values),
            packageIds: list(values['packageId']),
            packageNamePrefixes: list(values['packageNamePrefix']),
            participantIds: list(values['participant']),
            synchronizerIds: list(values['synchronizer']),
            json: values['json'] === true,
          },
          io,
        ),
      ),
    );
  return new Command('vetting')
    .description('Inspect and change package vetting')
    .summary('inspect and change package vetting')
    .addCommand(listCommand)
    .addCommand(changeCommand('vet'))
    .addCommand(changeCommand('unvet'));
}
