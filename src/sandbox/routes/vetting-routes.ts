import { requireAdmin } from '../auth/authorize.js';
import type { Handler, Route } from '../http/request-context.js';
import { decodeListVettedPackagesRequest } from '../vetting/decode-list-vetted-packages-request.js';
import { decodeUpdateVettedPackagesRequest } from '../vetting/decode-update-vetted-packages-request.js';
import { listVettedPackages } from '../vetting/list-vetted-packages.js';
import { updateVettedPackages } from '../vetting/update-vetted-packages.js';

// Order of every vetting operation: JSON decoding (400 text/plain), then the token (any authenticated
// caller may list; updates need a participant admin), then the operation's own validation.

const list: Handler = async (ctx) => {
  const request = decodeListVettedPackagesRequest(await ctx.body());
  await ctx.claims();
  return { json: listVettedPackages(ctx.state, request, ctx.options.maxVettingPageSize) };
};

const update: Handler = async (ctx) => {
  const request = decodeUpdateVettedPackagesRequest(await ctx.body());
  requireAdmin(await ctx.claims());
  return { json: updateVettedPackages(ctx.state, request) };
};

/**
 * The package-vetting routes (docs/server-behavior.md#vetting-list, #vetting-update): `POST /v2/package-vetting/list` and
 * `POST /v2/package-vetting/update`, plus the deprecated forms of the emulated API version —
 * `GET /v2/package-vetting` (the list, with its JSON request body on a GET) and `POST /v2/package-vetting`
 * (the update) — bound to the same handlers.
 */
export const vettingRoutes: readonly Route[] = [
  { method: 'POST', pattern: '/v2/package-vetting/list', handler: list },
  { method: 'GET', pattern: '/v2/package-vetting', handler: list },
  { method: 'POST', pattern: '/v2/package-vetting/update', handler: update },
  { method: 'POST', pattern: '/v2/package-vetting', handler: update },
];
