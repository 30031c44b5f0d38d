/**
 * The update-mask paths the server knows for `PATCH /v2/users/{user-id}`: protobuf snake_case field
 * names, with `.` for nesting (docs/server-behavior.md#user-update-validation-order step 5). `id`, `identity_provider_id` and
 * `metadata.resource_version` are accepted but never change anything.
 */
export const userUpdatePaths: readonly string[] = [
  'id',
  'primary_party',
  'is_deactivated',
  'metadata',
  'metadata.annotations',
  'metadata.resource_version',
  'identity_provider_id',
  'primary_party_authentication',
];
