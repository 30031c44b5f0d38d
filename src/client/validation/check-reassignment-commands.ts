import { InvalidArgumentError } from '../../errors/index.js';
import { requireNonEmptyArray } from './require-non-empty-array.js';
import { requireNonEmptyString } from './require-non-empty-string.js';

/**
 * The `reassignmentCommands` of a submit-and-wait-for-reassignment: `commandId` and `submitter` non-empty
 * (the server answers `INVALID_FIELD command_id|submitter`), at least one command (the spec requires it),
 * and every `commands[i].command` set and not `Empty` (`MISSING_FIELD command`).
 *
 * @throws InvalidArgumentError naming `reassignmentCommands.<field>`.
 */
export function checkReassignmentCommands(commands: {
  readonly commandId: string;
  readonly submitter: string;
  readonly commands: readonly { readonly command?: object | null | undefined }[];
}): void {
  requireNonEmptyString(commands.commandId, 'reassignmentCommands.commandId');
  requireNonEmptyString(commands.submitter, 'reassignmentCommands.submitter');
  requireNonEmptyArray(commands.commands, 'reassignmentCommands.commands', 'command');
  commands.commands.forEach((c, i) => {
    if (c.command == null || 'Empty' in c.command) {
      throw new InvalidArgumentError(`reassignmentCommands.commands[${i}].command`, 'must be an AssignCommand or UnassignCommand (not Empty)');
    }
  });
}
