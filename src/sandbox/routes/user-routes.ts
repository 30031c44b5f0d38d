import type { Route } from '../http/request-context.js';

export const userRoutes: readonly Route[] = [];
