import type { Route } from '../http/request-context.js';

export const partyRoutes: readonly Route[] = [];
