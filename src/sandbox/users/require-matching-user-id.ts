import { ErrorDefs } from '../errors/error-defs.js';
import { SandboxError } from '../errors/sandbox-error.js';

/**
 * The JSON layer's check of `PATCH /v2/users/{user-id}` and the rights routes (docs/server-behavior.md#user-update-validation-order step 2,
 * docs/server-behavior.md#rights-revoke-validation-order step 2): the user id in the body must equal the (URL-decoded) path id, exactly. It runs after body
 * decoding and before authentication, so it wins over a missing token. Failure is a JSON-layer
 * `INVALID_ARGUMENT` (400) whose cause renders the body id as a Scala `Option`, trailing space included:
 * `The submitted request has invalid arguments: alice does not match user in body: Some(bob) ` — or
 * `…: None ` when the body has no user at all (`bodyUserId` undefined).
 */
export function requireMatchingUserId(pathUserId: string, bodyUserId: string | undefined): void {
  if (bodyUserId === pathUserId) return;
  const rendered = bodyUserId === undefined ? 'None' : `Some(${bodyUserId})`;
  throw SandboxError.jsonLayer(ErrorDefs.INVALID_ARGUMENT, `The submitted request has invalid arguments: ${pathUserId} does not match user in body: ${rendered} `);
}
