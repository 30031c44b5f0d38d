import type { Route } from '../http/request-context.js';

/**
 * `GET /v2/version`: needs no token. `version` is the Canton build version of the served release line's
 * spec, written as that build reports it (`3.5.10-SNAPSHOT`; docs/participant-versions.md). Publishes the vetting-list page maximum and the checkpoint emission
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
          version: ctx.state.api.reportedVersion,
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
