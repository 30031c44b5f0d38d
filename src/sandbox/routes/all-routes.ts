import type { Route } from '../http/request-context.js';
import { activeContractsRoutes } from './active-contracts-routes.js';
import { byHashRoutes } from './by-hash-routes.js';
import { commandRoutes } from './command-routes.js';
import { completionRoutes } from './completion-routes.js';
import { packageRoutes } from './package-routes.js';
import { partyRoutes } from './party-routes.js';
import { stateRoutes } from './state-routes.js';
import { updatesPageRoutes } from './updates-page-route.js';
import { updatesRoutes } from './updates-route.js';
import { userRoutes } from './user-routes.js';
import { versionRoutes } from './version-route.js';
import { vettingRoutes } from './vetting-routes.js';
import { webSocketRoutes } from './websocket-routes.js';

/** Every route the sandbox serves on some release line (`start-sandbox` leaves out those its line lacks). */
export const allRoutes: readonly Route[] = [
  ...versionRoutes,
  ...stateRoutes,
  ...activeContractsRoutes,
  ...updatesRoutes,
  ...updatesPageRoutes,
  ...byHashRoutes,
  ...commandRoutes,
  ...completionRoutes,
  ...partyRoutes,
  ...userRoutes,
  ...packageRoutes,
  ...vettingRoutes,
  ...webSocketRoutes,
];
