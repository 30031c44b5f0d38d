import { ErrorDefs } from '../errors/error-defs.js';
import { SandboxError } from '../errors/sandbox-error.js';

/**
 * The 413 of a list answer that collected more than the node limit N
 * (`JSON_API_MAXIMUM_LIST_ELEMENTS_NUMBER_REACHED`, a JSON-layer error; docs/server-behavior.md#updates-list-completion).
 */
export function listOverflowError(count: number, n: number): SandboxError {
  return SandboxError.jsonLayer(
    ErrorDefs.JSON_API_MAXIMUM_LIST_ELEMENTS_NUMBER_REACHED,
    `The number of matching elements (${count}) is greater than the node limit (${n}).`,
    { status: 413 },
  );
}
