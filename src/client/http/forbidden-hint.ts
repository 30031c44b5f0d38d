import { jwtPayload } from './jwt-payload.js';

/** A request answered 403, as the client sent it. */
export interface ForbiddenRequest {
  /** `/v2/updates`, `/v2/commands/submit-and-wait`, ... */
  readonly path: string;
  readonly method: string;
  /** The JSON body (or WebSocket request frame), when there was one. */
  readonly body?: unknown;
  /** The token sent with it (`''` for none). */
  readonly token: string;
}

const customClaimsKey = 'https://daml.com/ledger-api';

const asObject = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/** The rights a request needs, in the participant's terms (docs/client.md, "Errors"). */
interface Needed {
  readAs: Set<string>;
  actAs: Set<string>;
  readAsAnyParty: boolean;
  admin: boolean;
  /** The user id the request names (it must be the token's user). */
  userId: string | undefined;
}

/**
 * Collects what the participant checks for a request (its authorizers, docs/server-behavior.md,
 * "Authentication and authorization"): `CanReadAs` for every key of a `filtersByParty`, `CanReadAsAnyParty` for a
 * `filtersForAnyParty` (and for an empty party list of topology events or completions), `CanActAs` for
 * `actAs`, `CanReadAs` for `readAs`, `ParticipantAdmin` for the user, party, package and vetting
 * administration. Command arguments are not walked (a Daml field may be called `actAs`).
 */
function neededRights(request: ForbiddenRequest): Needed {
  const needed: Needed = { readAs: new Set(), actAs: new Set(), readAsAnyParty: false, admin: false, userId: undefined };
  const visit = (value: unknown, depth: number): void => {
    const object = asObject(value);
    if (object === undefined || depth > 6) return;
    for (const [key, child] of Object.entries(object)) {
      if (key === 'filtersByParty') for (const party of Object.keys(asObject(child) ?? {})) needed.readAs.add(party);
      else if (key === 'filtersForAnyParty') needed.readAsAnyParty ||= child !== null && child !== undefined;
      else if (key === 'includeParticipantAuthorizationEvents' && asObject(child) !== undefined) {
        const parties = strings(asObject(child)?.['parties']);
        if (parties.length === 0) needed.readAsAnyParty = true;
        for (const party of parties) needed.readAs.add(party);
      } else if (key === 'actAs') for (const party of strings(child)) needed.actAs.add(party);
      else if (key === 'readAs') for (const party of strings(child)) needed.readAs.add(party);
      else if (key === 'userId' && typeof child === 'string' && child !== '') needed.userId ??= child;
      else if (key !== 'commands' || !Array.isArray(child)) visit(child, depth + 1);
    }
  };
  visit(request.body, 0);
  const path = request.path;
  if (/\/completions$|\/command-completions$/.test(path)) {
    const parties = strings(asObject(request.body)?.['parties']);
    if (parties.length === 0) needed.readAsAnyParty = true;
    for (const party of parties) needed.readAs.add(party);
  }
  const administration =
    path.startsWith('/v2/users') || path.startsWith('/v2/idps') || (request.method !== 'GET' && (path.startsWith('/v2/parties') || path.startsWith('/v2/packages') || path.startsWith('/v2/dars') || path.startsWith('/v2/package-vetting')));
  // a user reads its own record and rights without being an administrator
  const ownUser = /^\/v2\/users\/([^/]+)(\/rights)?$/.exec(path);
  needed.admin = administration && !(request.method === 'GET' && ownUser !== null);
  if (ownUser?.[1] !== undefined) needed.userId ??= decodeURIComponent(ownUser[1]);
  for (const party of needed.actAs) needed.readAs.delete(party); // CanActAs includes reading
  return needed;
}

/** The parts joined into one sentence, capitalised. */
function sentence(parts: string[]): string | undefined {
  const text = parts.join('; ');
  return text === '' ? undefined : `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

const list = (rights: string[]): string => (rights.length <= 1 ? (rights[0] ?? '') : `${rights.slice(0, -1).join(', ')} and ${rights.at(-1) ?? ''}`);

/**
 * Explains a 403 from what the client knows, since the participant redacts it (`NA: A security-sensitive
 * error has been received`): the rights the request needed, derived from the request (the parties of its
 * filters, `actAs`/`readAs`, the administration endpoints), and what the token says, decoded without
 * verifying it: expired, the user it is for (whose rights the participant keeps: `listUserRights` shows
 * them), or, for a custom-claims token, which of the needed rights it lacks. `undefined` when nothing can
 * be said. Never throws.
 */
export function forbiddenHint(request: ForbiddenRequest): string | undefined {
  const needed = neededRights(request);
  const rights = [
    ...[...needed.actAs].map((p) => `CanActAs(${p})`),
    ...[...needed.readAs].map((p) => `CanReadAs(${p})`),
    ...(needed.readAsAnyParty ? ['CanReadAsAnyParty'] : []),
    ...(needed.admin ? ['ParticipantAdmin'] : []),
  ];
  const sentences: string[] = [];
  if (rights.length > 0) sentences.push(`the participant checks ${list(rights)} for this request`);
  if (request.token === '') return sentence([...sentences, 'no token was sent']);
  const claims = jwtPayload(request.token);
  if (claims === undefined) return sentence(sentences);
  const exp = claims['exp'];
  if (typeof exp === 'number' && exp * 1000 <= Date.now()) sentences.push(`the token expired at ${new Date(exp * 1000).toISOString()}`);
  const custom = asObject(claims[customClaimsKey]);
  const sub = typeof claims['sub'] === 'string' && claims['sub'] !== '' ? claims['sub'] : undefined;
  if (custom !== undefined) {
    // a custom-claims token lists its rights itself: name the ones it lacks
    const actAs = new Set(strings(custom['actAs']));
    const readAs = new Set([...strings(custom['readAs']), ...actAs]);
    const missing = [
      ...[...needed.actAs].filter((p) => !actAs.has(p)).map((p) => `CanActAs(${p})`),
      ...[...needed.readAs].filter((p) => !readAs.has(p)).map((p) => `CanReadAs(${p})`),
      ...(needed.admin && custom['admin'] !== true ? ['ParticipantAdmin'] : []),
    ];
    if (missing.length > 0) sentences.push(`the token's claims lack ${list(missing)}`);
  } else if (sub !== undefined) {
    const partyRights = needed.actAs.size + needed.readAs.size > 0 || needed.readAsAnyParty;
    sentences.push(
      `the token is for the user '${sub}', whose rights the participant keeps (see them with listUserRights('${sub}'), add them with grantUserRights)` +
        (partyRights ? '; ParticipantAdmin does not include reading or acting as a party' : ''),
    );
    if (needed.userId !== undefined && needed.userId !== sub && !needed.admin) sentences.push(`the request names the user '${needed.userId}', not the token's`);
  }
  return sentence(sentences);
}
