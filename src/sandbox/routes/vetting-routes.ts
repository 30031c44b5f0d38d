import type { Route } from '../http/request-context.js';

export const vettingRoutes: readonly Route[] = [];
