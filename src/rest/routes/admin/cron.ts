import * as cronService from '../../../services/cron/cron.ts';
import { toApiCron } from '../../convert/cron.ts';
import { defineList } from '../../list.ts';
import { defineRoute } from '../../route.ts';

export const adminCronRoutes = [
  defineList({
    path: '/admin/cron',
    operationId: 'adminCronList',
    summary: 'List cron tasks',
    tag: 'admin',
    scopes: ['admin'],
    gate: 'admin',
    // Gitea pages this list in memory and sends X-Total-Count without a Link header.
    headers: 'count',
    schema: '[Cron]',
    errors: [401, 403],
    load: ({ cx, page }) => cronService.listCronTasks(cx, page),
    convert: (result) => result.items.map(toApiCron),
  }),
  defineRoute({
    method: 'POST',
    path: '/admin/cron/{task}',
    operationId: 'adminCronRun',
    summary: 'Run cron task',
    tag: 'admin',
    scopes: ['admin'],
    gate: 'admin',
    success: { status: 204 },
    errors: [401, 403, 404],
    handler: async ({ cx, params }) => {
      await cronService.runCronTask(cx, params.task ?? '');
    },
  }),
];
