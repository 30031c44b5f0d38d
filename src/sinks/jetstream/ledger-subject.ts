import type { JsGetUpdatesResponse } from '../../schemas/updates.js';
import { isUnknownVariant } from '../../schemas/variant.js';
import { subjectToken } from './subject-token.js';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The kind token of an element's subject. */
export type LedgerSubjectKind = 'transaction' | 'reassignment' | 'topology' | 'checkpoint' | 'unknown';

/** Marks a subject position shared by events of different templates (or packages, or modules). */
export const MIXED = '_mixed';
/** Marks a transaction or reassignment without events (nothing visible to the filter's parties). */
export const NONE = '_none';

/** The kind of an element, from its variant. */
export function ledgerSubjectKind(element: JsGetUpdatesResponse): LedgerSubjectKind {
  const update: unknown = element.update;
  if (!isObject(update) || isUnknownVariant(update)) return 'unknown';
  if ('Transaction' in update) return 'transaction';
  if ('Reassignment' in update) return 'reassignment';
  if ('TopologyTransaction' in update) return 'topology';
  if ('OffsetCheckpoint' in update) return 'checkpoint';
  return 'unknown';
}

/** `[package name, module, entity]` of one event, from its `packageName` and `templateId` (`pkg:Module.Path:Entity`). */
function templateOf(event: unknown): [string, string, string] | undefined {
  if (!isObject(event)) return undefined;
  let e: Json | undefined;
  for (const key in event) {
    const v = event[key];
    if (!isObject(v)) continue;
    // reassignment events: JsUnassignedEvent { value: {...} } / JsAssignmentEvent { createdEvent: {...} }
    e = isObject(v['createdEvent']) ? v['createdEvent'] : isObject(v['value']) ? v['value'] : v;
    break;
  }
  if (!e || typeof e['templateId'] !== 'string') return undefined;
  const parts = e['templateId'].split(':');
  if (parts.length < 3) return undefined;
  const entity = parts.pop() as string;
  const module = parts.pop() as string;
  const ref = parts.join(':');
  const pkg = typeof e['packageName'] === 'string' && e['packageName'] !== '' ? e['packageName'] : ref.replace(/^#/, '');
  return [pkg, module, entity];
}

/**
 * The NATS subject of an element under `prefix`, so consumers can filter without parsing:
 *
 * - a transaction or reassignment: `<prefix>.<kind>.<package-name>.<Module>.<Entity>` when all its events
 *   have one template; when they differ, each position that is not shared becomes `_mixed` from there on:
 *   `<prefix>.transaction.<package>.<Module>._mixed` (one module, several entities),
 *   `<prefix>.transaction.<package>._mixed._mixed` (one package), `<prefix>.transaction._mixed._mixed._mixed`;
 *   without events: `<prefix>.<kind>._none._none._none`. So `<prefix>.transaction.<package>.>` catches every
 *   transaction that only touches that package;
 * - `<prefix>.topology`, `<prefix>.checkpoint`, `<prefix>.unknown` (an update kind this library does not know).
 *
 * Package, module and entity names become tokens with {@link subjectToken} (`Main.Iou` → `Main%2EIou`).
 * `_mixed` and `_none` never clash with a name: Daml names start with a letter.
 */
export function ledgerSubject(prefix: string, element: JsGetUpdatesResponse): string {
  const kind = ledgerSubjectKind(element);
  if (kind !== 'transaction' && kind !== 'reassignment') return `${prefix}.${kind}`;
  const update = element.update as Json;
  const payload = update[kind === 'transaction' ? 'Transaction' : 'Reassignment'];
  const value = isObject(payload) ? payload['value'] : undefined;
  const events = isObject(value) && Array.isArray(value['events']) ? value['events'] : [];
  let shared: [string, string, string] | undefined;
  let depth = 3; // how many leading positions all events share
  let seen = false;
  for (const event of events) {
    const t = templateOf(event);
    if (!t) continue;
    if (!seen) {
      shared = t;
      seen = true;
      continue;
    }
    const s = shared as [string, string, string];
    let same = 0;
    while (same < depth && s[same] === t[same]) same++;
    depth = same;
  }
  if (!shared) return `${prefix}.${kind}.${NONE}.${NONE}.${NONE}`;
  const tokens = shared.map((name, i) => (i < depth ? subjectToken(name) : MIXED));
  return `${prefix}.${kind}.${tokens.join('.')}`;
}
