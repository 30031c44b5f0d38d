import type { Route } from '../http/request-context.js';

export const updatesRoutes: readonly Route[] = [];
