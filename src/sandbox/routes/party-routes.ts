import { requireAdminOrIdpAdmin } from '../auth/authorize.js';
import { decodeBody, map, object, optional, string, withDefault } from '../decode/decoders.js';
import { dictionary } from '../decode/dictionary.js';
import type { Route } from '../http/request-context.js';
import { allocateParty } from '../submit/allocate-party.js';
import { queryInt64 } from '../decode/query-int64.js';
import { requestErrors } from '../errors/request-errors.js';
import type { PartyRecord } from '../state/parties-store.js';

/** `partyManagement.maxPartiesPageSize`, as `GET /v2/version` publishes it. */
const maxPartiesPageSize = 10_000;

const text = withDefault(string, () => '');

const allocatePartyRequest = object({
  partyIdHint: text,
  localMetadata: optional(object({ resourceVersion: text, annotations: withDefault(map(string), () => dictionary<string>()) })),
  identityProviderId: text,
  synchronizerId: text,
  userId: text,
});

function details(p: PartyRecord) {
  return {
    party: p.party,
    isLocal: p.isLocal,
    localMetadata: { resourceVersion: String(p.resourceVersion), annotations: dictionary(Object.entries(p.annotations)) },
    identityProviderId: p.identityProviderId,
  };
}

/**
 * Party management:
 *
 * - `POST /v2/parties` (`AllocatePartyRequest` → `{partyDetails}`): participant admin or an IDP admin of
 *   `identityProviderId`; allocates `<partyIdHint>::<participant namespace>` and appends its topology
 *   transaction (see {@link allocateParty}, which validates the hint, `localMetadata` — resource version
 *   empty, annotations as for users — and the rest in the server's order); with several synchronizers
 *   `synchronizerId` is required. (`PATCH /v2/parties/{party}` is not served.)
 * - `GET /v2/parties?identity-provider-id=&filter-party=&pageSize=&pageToken=` (→
 *   `ListKnownPartiesResponse`): participant admin or an IDP admin of that IDP; the local parties and the
 *   other participant's parties known here (`isLocal: false`), sorted by party id. `filter-party` keeps
 *   parties whose id starts with it (the sandbox's reading of the undocumented parameter); a non-empty
 *   `identity-provider-id` keeps that IDP's parties. `pageSize` 0 or absent means the maximum (10 000);
 *   negative or larger is `INVALID_ARGUMENT`. `nextPageToken` (opaque) is set when more parties follow,
 *   `""` otherwise.
 */
export const partyRoutes: readonly Route[] = [
  {
    method: 'POST',
    pattern: '/v2/parties',
    handler: async (ctx) => {
      const request = decodeBody(allocatePartyRequest, await ctx.body());
      requireAdminOrIdpAdmin(await ctx.claims(), request.identityProviderId);
      const record = allocateParty(ctx.state, request.partyIdHint, {
        synchronizerId: request.synchronizerId,
        requireSynchronizerChoice: true,
        resourceVersion: request.localMetadata?.resourceVersion ?? '',
        annotations: request.localMetadata?.annotations ?? dictionary(),
        identityProviderId: request.identityProviderId,
        userId: request.userId,
      });
      return { json: { partyDetails: details(record) } };
    },
  },
  {
    method: 'GET',
    pattern: '/v2/parties',
    handler: async (ctx) => {
      const idp = ctx.query.get('identity-provider-id') ?? '';
      const prefix = ctx.query.get('filter-party') ?? '';
      const pageSize = queryInt64(ctx.query, 'pageSize', -2147483648, 2147483647) ?? 0;
      const token = ctx.query.get('pageToken') ?? '';
      requireAdminOrIdpAdmin(await ctx.claims(), idp);
      if (pageSize < 0) throw requestErrors.invalidArgument('Page size must be non-negative');
      if (pageSize > maxPartiesPageSize) throw requestErrors.invalidArgument(`Page size must not exceed the server's maximum of ${maxPartiesPageSize}`);
      let after = '';
      if (token !== '') {
        after = Buffer.from(token, 'base64url').toString('utf8');
        if (!after.startsWith('party:')) throw requestErrors.invalidField('page_token', 'Invalid page token');
        after = after.slice('party:'.length);
      }
      const size = pageSize === 0 ? maxPartiesPageSize : pageSize;
      const matching = ctx.state.parties
        .all()
        .filter((p) => p.party.startsWith(prefix) && (idp === '' || p.identityProviderId === idp) && p.party > after)
        .sort((a, b) => (a.party < b.party ? -1 : a.party > b.party ? 1 : 0));
      const page = matching.slice(0, size);
      const last = page[page.length - 1];
      const nextPageToken = matching.length > size && last ? Buffer.from(`party:${last.party}`).toString('base64url') : '';
      return { json: { partyDetails: page.map(details), nextPageToken } };
    },
  },
];
