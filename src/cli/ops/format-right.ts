import type { Right } from '../../schemas/users.js';
import { isUnknownVariant } from '../../schemas/variant.js';

/** A right as one short line: `CanActAs Alice::1220…`, `ParticipantAdmin`, or the kind name of an unknown right. */
export function formatRight(right: Right): string {
  const kind: unknown = right.kind;
  if (kind === null || kind === undefined) return '(empty right)';
  if (isUnknownVariant(kind)) return kind.unknownVariant;
  const [name, payload] = Object.entries(kind as Record<string, unknown>)[0] ?? ['?', undefined];
  const party = (payload as { value?: { party?: unknown } } | undefined)?.value?.party;
  return typeof party === 'string' ? `${name} ${party}` : name;
}
