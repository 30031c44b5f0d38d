import type { Route } from '../http/request-context.js';

export const commandRoutes: readonly Route[] = [];
