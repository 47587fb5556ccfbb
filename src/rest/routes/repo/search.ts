import { z } from 'zod';
import * as repoSearch from '../../../services/repo/search.ts';
import { convertOptions } from '../../convert/options.ts';
import { toApiRepositoryList } from '../../convert/repo.ts';
import { listOptions, setPaginationHeaders } from '../../pagination.ts';
import { defineRoute } from '../../route.ts';
import { zQueryBool, zQueryInt } from '../../validation.ts';

/** GET /repos/search query (Gitea's names; unparsable booleans and integers are ignored, as Gitea's Form*). */
const SearchQuery = z.object({
  q: z.string().optional(),
  topic: zQueryBool,
  includeDesc: zQueryBool,
  uid: zQueryInt,
  priority_owner_id: zQueryInt,
  team_id: zQueryInt,
  starredBy: zQueryInt,
  private: zQueryBool,
  is_private: zQueryBool,
  template: zQueryBool,
  archived: zQueryBool,
  mode: z.string().optional(),
  exclusive: zQueryBool,
  sort: z.string().optional(),
  order: z.string().optional(),
  page: z.string().optional(),
  limit: z.string().optional(),
});

/** GET /repos/search: `{"ok":true,"data":[…]}` with X-Total-Count and Link. */
export const repoSearchRoutes = [
  defineRoute({
    method: 'GET',
    path: '/repos/search',
    operationId: 'repoSearch',
    summary: 'Search for repositories',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    query: SearchQuery,
    success: { status: 200, schema: 'SearchResults' },
    errors: [422],
    handler: async ({ cx, query, req, reply }) => {
      const opts = listOptions(req.query as Record<string, unknown>);
      const page = await repoSearch.searchRepos(
        cx,
        {
          q: query.q,
          topic: query.topic,
          includeDesc: query.includeDesc,
          uid: query.uid,
          priorityOwnerId: query.priority_owner_id,
          teamId: query.team_id,
          starredBy: query.starredBy,
          private: query.private,
          isPrivate: query.is_private,
          template: query.template,
          archived: query.archived,
          mode: query.mode,
          exclusive: query.exclusive,
          sort: query.sort,
          order: query.order,
        },
        opts,
      );
      setPaginationHeaders(req, reply, cx.config.rootUrl, page.total, opts);
      return { ok: true, data: toApiRepositoryList(page.items, convertOptions(cx)) };
    },
  }),
];
