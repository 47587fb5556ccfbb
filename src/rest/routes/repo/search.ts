import { z } from 'zod';
import * as repoSearch from '../../../services/repo/search.ts';
import { convertOptions } from '../../convert/options.ts';
import { toApiRepositoryList } from '../../convert/repo.ts';
import { defineList } from '../../list.ts';
import { qBool, qInt, qString } from '../../params.ts';

/** GET /repos/search query (Gitea's names; unparsable booleans and integers are ignored, as Gitea's Form*). */
const SearchQuery = z.object({
  q: qString('keyword'),
  topic: qBool('limit search to repositories with keyword as topic'),
  includeDesc: qBool('include search of keyword within repository description'),
  uid: qInt('search only for repos that the user with the given id owns or contributes to'),
  priority_owner_id: qInt('repo owner to prioritize in the results'),
  team_id: qInt('search only for repos that belong to the given team id'),
  starredBy: qInt('search only for repos that the user with the given id has starred'),
  private: qBool('include private repositories this user has access to (defaults to true)'),
  is_private: qBool('show only public, private or all repositories (defaults to all)'),
  template: qBool('include template repositories this user has access to (defaults to true)'),
  archived: qBool('show only archived, non-archived or all repositories (defaults to all)'),
  mode: qString('type of repository to search for', { enum: ['fork', 'source', 'mirror', 'collaborative'] }),
  exclusive: qBool('if `uid` is given, search only for repos that the user owns'),
  sort: qString('sort repos by attribute', {
    enum: ['alpha', 'created', 'updated', 'size', 'git_size', 'lfs_size', 'stars', 'forks', 'id'],
  }),
  order: qString('sort order, either "asc" (ascending) or "desc" (descending); "sort" must be given too', { enum: ['asc', 'desc'] }),
});

/** GET /repos/search: `{"ok":true,"data":[…]}` with X-Total-Count and Link. */
export const repoSearchRoutes = [
  defineList({
    path: '/repos/search',
    operationId: 'repoSearch',
    summary: 'Search for repositories',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    query: SearchQuery,
    headers: 'link',
    schema: 'SearchResults',
    errors: [422],
    load: ({ cx, query, page }) =>
      repoSearch.searchRepos(
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
        page,
      ),
    convert: (result, { cx }) => ({ ok: true, data: toApiRepositoryList(result.items, convertOptions(cx)) }),
  }),
];
