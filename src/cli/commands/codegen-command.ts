import { Command, Option } from 'commander';
import { commandAction } from '../process/command-action.js';
import { exitCodesHelp } from '../process/exit-codes-help.js';

/** `ledger-rx codegen FILE.dar... --out DIR`: the commander layer over `runCodegen`. */
export function codegenCommand(): Command {
  return new Command('codegen')
    .description('Generate TypeScript (types, zod schemas, template and interface descriptors) from DAR files: the main package of each and every package it needs')
    .summary('generate TypeScript types and schemas from DARs')
    .argument('<dar...>', 'the DAR files')
    .addOption(new Option('--out <dir>', 'the directory to write to: one folder per package, one file per Daml module').makeOptionMandatory())
    .addHelpText(
      'after',
      `
Examples:
  ledger-rx codegen ./.daml/dist/my-app-1.0.0.dar --out src/daml
  ledger-rx codegen app.dar splice-api-token-holding-v1.dar --out generated

The files import their runtime from ledger-rx/daml (zod is a peer dependency). The same DARs always give the same bytes.
${exitCodesHelp}`,
    )
    .action(
      commandAction(async (values, args, io) => {
        const { runCodegen } = await import('../codegen/run-codegen.js');
        const out = values['out'];
        return runCodegen({ dars: args, out: typeof out === 'string' ? out : undefined }, io);
      }),
    );
}
