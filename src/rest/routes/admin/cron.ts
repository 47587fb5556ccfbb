import { z } from 'zod';
import * as cronService from '../../../services/cron/cron.ts';
import { toApiCron } from '../../convert/cron.ts';
import { listOptions, setTotalCount } from '../../pagination.ts';
import { defineRoute } from '../../route.ts';

const ListQuery = z.object({ page: z.string().optional(), limit: z.string().optional() });

export const adminCronRoutes = [
  defineRoute({
    method: 'GET',
    path: '/admin/cron',
    operationId: 'adminCronList',
    summary: 'List cron tasks',
    tag: 'admin',
    scopes: ['admin'],
    gate: 'admin',
    query: ListQuery,
    success: { status: 200, schema: '[Cron]' },
    errors: [401, 403],
    handler: async ({ cx, req, reply }) => {
      const page = await cronService.listCronTasks(cx, listOptions(req.query as Record<string, unknown>));
      // Gitea pages this list in memory and sends X-Total-Count without a Link header.
      setTotalCount(reply, page.total);
      return page.items.map(toApiCron);
    },
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
