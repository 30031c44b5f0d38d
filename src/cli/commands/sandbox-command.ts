import { Command } from 'commander';

/** `ledger-rx sandbox`: starts the embedded participant. */
export function sandboxCommand(): Command {
  return new Command('sandbox').description('Run the embedded sandbox participant');
}
