import type { Route } from '../http/request-context.js';

export const packageRoutes: readonly Route[] = [];
