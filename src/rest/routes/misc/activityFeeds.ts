import * as feedService from '../../../services/feed/feed.ts';
import { toApiActivityList } from '../../convert/activity.ts';
import { convertOptions } from '../../convert/options.ts';
import { defineList } from '../../list.ts';
import { idParam, qBool, qString } from '../../params.ts';
import { idOf } from '../../pathParams.ts';
import type { RouteDef } from '../../route.ts';
import { z } from 'zod';

const DATE = qString('the date of the activities to be found (YYYY-MM-DD); an unparsable date is ignored');
const DATED = z.object({ date: DATE });

/**
 * Activity feeds (Gitea ListUserActivityFeeds, ListOrgActivityFeeds, ListTeamActivityFeeds, ListRepoActivityFeeds):
 * newest first, X-Total-Count (and Link for teams, as Gitea).
 */
export const activityFeedRoutes: readonly RouteDef[] = [
  defineList({
    path: '/users/{username}/activities/feeds',
    operationId: 'userListActivityFeeds',
    summary: "List a user's activity feeds",
    tag: 'user',
    scopes: ['user'],
    gate: 'none',
    query: z.object({ 'only-performed-by': qBool('if true, only show actions performed by the requested user'), date: DATE }),
    headers: 'count',
    schema: '[Activity]',
    errors: [403, 404],
    load: ({ cx, params, query, page }) =>
      feedService.listUserFeeds(cx, params.username ?? '', { ...page, date: query.date, onlyPerformedBy: query['only-performed-by'] }),
    convert: (result, { cx }) => toApiActivityList(result.items, cx.viewer, convertOptions(cx)),
  }),
  defineList({
    path: '/orgs/{org}/activities/feeds',
    operationId: 'orgListActivityFeeds',
    summary: "List an organization's activity feeds",
    tag: 'organization',
    scopes: ['organization'],
    gate: 'none',
    query: DATED,
    headers: 'count',
    schema: '[Activity]',
    errors: [403, 404],
    load: ({ cx, params, query, page }) => feedService.listOrgFeeds(cx, params.org ?? '', { ...page, date: query.date }),
    convert: (result, { cx }) => toApiActivityList(result.items, cx.viewer, convertOptions(cx)),
  }),
  defineList({
    path: '/teams/{id}/activities/feeds',
    operationId: 'orgListTeamActivityFeeds',
    summary: "List a team's activity feeds",
    tag: 'organization',
    scopes: ['organization'],
    gate: 'none',
    params: { id: idOf('team') },
    query: DATED,
    headers: 'link',
    schema: '[Activity]',
    errors: [401, 403, 404],
    load: ({ cx, params, query, page }) => feedService.listTeamFeeds(cx, idParam(params), { ...page, date: query.date }),
    convert: (result, { cx }) => toApiActivityList(result.items, cx.viewer, convertOptions(cx)),
  }),
  defineList({
    path: '/repos/{owner}/{repo}/activities/feeds',
    operationId: 'repoListActivityFeeds',
    summary: "List a repository's activity feeds",
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    query: DATED,
    headers: 'count',
    schema: '[Activity]',
    errors: [404],
    load: ({ cx, params, query, page }) =>
      feedService.listRepoFeeds(cx, params.owner ?? '', params.repo ?? '', { ...page, date: query.date }),
    convert: (result, { cx }) => toApiActivityList(result.items, cx.viewer, convertOptions(cx)),
  }),
];
