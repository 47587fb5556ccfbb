import * as heatmapService from '../../../services/feed/heatmap.ts';
import { defineRoute } from '../../route.ts';

/** GET /users/{username}/heatmap. */
export const heatmapRoutes = [
  defineRoute({
    method: 'GET',
    path: '/users/{username}/heatmap',
    operationId: 'userGetHeatmapData',
    summary: "Get a user's heatmap",
    tag: 'user',
    scopes: ['user'],
    gate: 'none',
    success: { status: 200, schema: '[UserHeatmapData]' },
    errors: [404],
    handler: ({ cx, params }) => heatmapService.getUserHeatmap(cx, params.username ?? ''),
  }),
];
