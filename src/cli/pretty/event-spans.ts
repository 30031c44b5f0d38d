import { compactValue } from './compact-value.js';
import { elide } from './elide.js';
import type { PrettySpan } from './pretty-row.js';
import { shortParty } from './short-party.js';
import { shortTemplate } from './short-template.js';
import type { StyleName } from './style-name.js';
import { wireVariant } from './wire-variant.js';

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const partyList = (v: unknown): string[] => (Array.isArray(v) ? v.filter((p): p is string => typeof p === 'string') : []);
/** The parties shortened (`shortParty`: `Alice`, the same form on every row). */
const parties = (v: unknown): PrettySpan => ({ text: partyList(v).map(shortParty).join(', '), style: 'party', shrink: 3 });
/** A Daml value (an argument) in its compact view. */
const argument = (v: unknown): PrettySpan => ({ text: compactValue(v), style: 'value', shrink: 2 });
/** A contract id as `#000000…cdef`, and `#…cdef` for a narrow line. */
const contract = (v: unknown): PrettySpan => ({ text: `#${elide(str(v), 6, 4)}`, short: `#…${str(v).slice(-4)}`, style: 'id', shrink: 2 });
const sp: PrettySpan = { text: ' ' };
/** Verbs are padded to one width, so the templates after them line up. */
const verb = (text: string, style: StyleName): PrettySpan => ({ text: `${text.padEnd(10)} `, style });

function template(e: Readonly<Record<string, unknown>>, suffix = ''): PrettySpan {
  const full = shortTemplate(str(e['templateId']), typeof e['packageName'] === 'string' ? e['packageName'] : undefined);
  return { text: full + suffix, short: full.slice(full.indexOf(':') + 1) + suffix, style: 'template', shrink: 1 };
}

function created(e: Readonly<Record<string, unknown>>, action: string): PrettySpan[] {
  return [verb(action, 'created'), ...contractSpans(e)];
}

/**
 * The spans of a contract from its `CreatedEvent` (wire form): the template as `package:Module:Entity`
 * (`Module:Entity` on a narrow line), the signatories (`shortParty`) and the create argument (compact) —
 * what a `created` event shows after its verb, and a row of `acs`.
 */
export function contractSpans(e: Readonly<Record<string, unknown>>): PrettySpan[] {
  return [template(e), sp, parties(e['signatories']), sp, argument(e['createArgument'])];
}

/**
 * The spans of one event in the human view, from its wire form (or `{unknownVariant, payload}`):
 * - `CreatedEvent`: `created`, the template as `package:Module:Entity`, the signatories (`shortParty`), the
 *   create argument (compact);
 * - `ArchivedEvent`: `archived`, the template, the contract id (`#0000ab…cdef`);
 * - `ExercisedEvent`: `exercised` (`consumed` for a consuming choice), the template and `.Choice`, the
 *   acting parties, the choice argument (compact);
 * - reassignment events: `assigned` (then as a created event) and `unassigned` (template, contract id,
 *   source → target synchronizer);
 * - topology events: the change (`authorized`, `changed`, `onboarding`, `revoked`), the party, the
 *   participant and its permission;
 * - anything else: its tag, muted.
 * When the line is too long, the parties give up width first (cut), then the arguments and ids (short
 * forms, then cut), then the templates (without their package).
 * Used by every command that shows events or contracts (`tail`, `acs` through `contractSpans`).
 */
export function eventSpans(event: unknown): PrettySpan[] {
  const v = wireVariant(event);
  if (!v) return [{ text: 'event', style: 'muted' }];
  const e = v.payload;
  switch (v.tag) {
    case 'CreatedEvent':
      return created(e, 'created');
    case 'ArchivedEvent':
      return [verb('archived', 'archived'), template(e), sp, contract(e['contractId'])];
    case 'ExercisedEvent': {
      const choice = str(e['choice']);
      return [
        verb(e['consuming'] === true ? 'consumed' : 'exercised', 'exercised'),
        template(e, `.${choice}`),
        sp,
        parties(e['actingParties']),
        sp,
        argument(e['choiceArgument']),
      ];
    }
    case 'JsAssignmentEvent': {
      const inner = e['createdEvent'];
      return typeof inner === 'object' && inner !== null ? created(inner as Record<string, unknown>, 'assigned') : [{ text: 'assigned', style: 'created' }];
    }
    case 'JsUnassignedEvent':
      return [
        verb('unassigned', 'archived'),
        template(e),
        sp,
        contract(e['contractId']),
        sp,
        { text: `${elide(str(e['source']), 12, 4)} → ${elide(str(e['target']), 12, 4)}`, style: 'muted', shrink: 3 },
      ];
    default:
      return topologySpans(v.tag, e);
  }
}

const topologyVerbs: Readonly<Record<string, string>> = {
  ParticipantAuthorizationAdded: 'authorized',
  ParticipantAuthorizationChanged: 'changed',
  ParticipantAuthorizationOnboarding: 'onboarding',
  ParticipantAuthorizationRevoked: 'revoked',
};

function topologySpans(tag: string, e: Readonly<Record<string, unknown>>): PrettySpan[] {
  const action = topologyVerbs[tag];
  if (action === undefined) return [{ text: tag, style: 'muted' }];
  const permission = str(e['participantPermission']).replace(/^PARTICIPANT_PERMISSION_/, '').toLowerCase();
  return [
    verb(action, action === 'revoked' ? 'archived' : 'created'),
    parties([e['partyId']]),
    { text: ' on ' },
    { text: shortParty(str(e['participantId'])), style: 'id', shrink: 3 },
    ...(permission ? [sp, { text: permission, style: 'muted' as const }] : []),
  ];
}
