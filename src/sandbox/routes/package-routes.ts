import type { Route } from '../http/request-context.js';

/**
 * `GET /v2/packages`: the ids of every package uploaded to the participant (`ListPackagesResponse`),
 * vetted or not, in upload order. Any authenticated caller may list them.
 */
export const packageRoutes: readonly Route[] = [
  {
    method: 'GET',
    pattern: '/v2/packages',
    handler: async (ctx) => {
      await ctx.claims();
      return { json: { packageIds: ctx.state.packages.all().map((p) => p.packageId) } };
    },
  },
];
