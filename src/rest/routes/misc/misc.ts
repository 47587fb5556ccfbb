import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../../services/paging.ts';
import { defineRoute } from '../../route.ts';

export const miscRoutes = [
  defineRoute({
    method: 'GET',
    path: '/version',
    operationId: 'getVersion',
    summary: "Returns the version of the running application",
    tag: 'miscellaneous',
    scopes: null,
    gate: 'none',
    success: { status: 200, schema: 'ServerVersion' },
    handler: async ({ cx }) => ({ version: cx.config.version }),
  }),
  defineRoute({
    method: 'GET',
    path: '/settings/api',
    operationId: 'getGeneralAPISettings',
    summary: 'Get instance\'s global settings for api',
    tag: 'settings',
    scopes: null,
    gate: 'none',
    success: { status: 200, schema: 'GeneralAPISettings' },
    handler: async () => ({
      max_response_items: MAX_PAGE_SIZE,
      default_paging_num: DEFAULT_PAGE_SIZE,
      default_git_trees_per_page: 1000,
      default_max_blob_size: 10_485_760,
      default_max_response_size: 104_857_600,
    }),
  }),
];
