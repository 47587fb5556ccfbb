import type { RouteDef } from '../../route.ts';

/** Filled in by the feature that owns this file. */
export const pullRoutes: readonly RouteDef[] = [];
