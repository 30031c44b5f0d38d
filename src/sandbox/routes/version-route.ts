import type { Route } from '../http/request-context.js';

/** The version the sandbox reports: the Canton API line it emulates. */
export const sandboxApiVersion = '3.6.0-ledger-rx-sandbox';

/**
 * `GET /v2/version`: needs no token. Publishes the vetting-list page maximum and the checkpoint emission
 * delay as the real participant does; the JSON list limits are not published (as on a real participant).
 */
export const versionRoutes: readonly Route[] = [
  {
    method: 'GET',
    pattern: '/v2/version',
    handler: (ctx) => {
      const delaySeconds = Math.round(ctx.options.checkpointIntervalMs / 1000) + 60;
      return {
        json: {
          version: sandboxApiVersion,
          features: {
            experimental: { staticTime: { supported: false }, commandInspectionService: { supported: true } },
            userManagement: { supported: true, maxRightsPerUser: 1000, maxUsersPageSize: 1000 },
            partyManagement: { maxPartiesPageSize: 10000 },
            offsetCheckpoint: {
              maxOffsetCheckpointEmissionDelay: { seconds: delaySeconds, nanos: 0, unknownFields: { fields: {} } },
            },
            packageFeature: { maxVettedPackagesPageSize: ctx.options.maxVettingPageSize },
          },
        },
      };
    },
  },
];
