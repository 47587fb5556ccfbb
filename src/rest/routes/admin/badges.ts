import * as badgeService from '../../../services/user/badge.ts';
import { toApiBadge } from '../../convert/badge.ts';
import { defineRoute } from '../../route.ts';
import { UserBadgeOption } from '../../structs/badge.ts';

const admin = { tag: 'admin', scopes: ['admin' as const], gate: 'admin' as const };

/** /admin/users/{username}/badges (Gitea routers/api/v1/admin/user_badge.go). */
export const adminBadgeRoutes = [
  defineRoute({
    method: 'GET',
    path: '/admin/users/{username}/badges',
    operationId: 'adminListUserBadges',
    summary: "List a user's badges",
    ...admin,
    success: { status: 200, schema: '[Badge]' },
    errors: [401, 403, 404],
    handler: async ({ cx, params, reply }) => {
      const badges = await badgeService.listUserBadges(cx, params.username ?? '');
      // Gitea sends the count without paging (SetTotalCountHeader).
      reply.header('X-Total-Count', String(badges.length));
      return badges.map(toApiBadge);
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/admin/users/{username}/badges',
    operationId: 'adminAddUserBadges',
    summary: 'Add a badge to a user',
    ...admin,
    body: UserBadgeOption,
    success: { status: 204 },
    errors: [401, 403, 404, 422],
    handler: async ({ cx, params, body }) => {
      await badgeService.addUserBadges(cx, params.username ?? '', body.badge_slugs ?? []);
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/admin/users/{username}/badges',
    operationId: 'adminDeleteUserBadges',
    summary: 'Remove a badge from a user',
    ...admin,
    body: UserBadgeOption,
    success: { status: 204 },
    errors: [401, 403, 404, 422],
    handler: async ({ cx, params, body }) => {
      await badgeService.removeUserBadges(cx, params.username ?? '', body.badge_slugs ?? []);
    },
  }),
];
