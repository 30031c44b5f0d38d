import type { ArchivedEvent, CreatedEvent, ExercisedEvent } from '../../schemas/events.js';

/** An update element as the update readers emit it (only the parts the typed operators read). */
export interface UpdateElementLike {
  readonly update?: unknown;
}

/** The events of a transaction element, by kind; nothing for other updates (reassignments, checkpoints, unknown kinds). */
export interface TransactionEvents {
  readonly created: readonly CreatedEvent[];
  readonly archived: readonly ArchivedEvent[];
  readonly exercised: readonly ExercisedEvent[];
}

const none: TransactionEvents = { created: [], archived: [], exercised: [] };

/** Splits a `Transaction` update's events by kind (docs/typed-templates.md, "Typed streams"). */
export function transactionEvents(element: UpdateElementLike): TransactionEvents {
  const update = element.update as { Transaction?: { value?: { events?: readonly Record<string, unknown>[] } } } | undefined;
  const events = update?.Transaction?.value?.events;
  if (events === undefined) return none;
  const created: CreatedEvent[] = [];
  const archived: ArchivedEvent[] = [];
  const exercised: ExercisedEvent[] = [];
  for (const e of events) {
    if (e['CreatedEvent'] !== undefined) created.push(e['CreatedEvent'] as CreatedEvent);
    else if (e['ArchivedEvent'] !== undefined) archived.push(e['ArchivedEvent'] as ArchivedEvent);
    else if (e['ExercisedEvent'] !== undefined) exercised.push(e['ExercisedEvent'] as ExercisedEvent);
  }
  return { created, archived, exercised };
}

/** `<package-id>:<Module>:<Entity>` (or `#name:…`) → `<Module>:<Entity>`. */
export function qualifiedName(id: string): string {
  const colon = id.indexOf(':');
  return colon < 0 ? id : id.slice(colon + 1);
}
