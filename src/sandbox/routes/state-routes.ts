import type { Route } from '../http/request-context.js';

export const stateRoutes: readonly Route[] = [];
