// The read policy of activity feed rows (Gitea models/activities/action.go ActivityQueryCondition).
import type { Models } from '../../db/client.ts';
import { isSiteAdmin } from '../access/guards.ts';
import type { ServiceContext } from '../context.ts';
import { repoReadWhere } from '../repo/visibility.ts';

type Where = Models.Prisma.ActionWhereInput;

/** Whose feed is read: a user's or organization's own rows, a team's repositories, or a repository's original rows. */
export type FeedScope =
  | {
      kind: 'user';
      user: Pick<Models.User, 'id' | 'type'>;
      onlyPerformedBy?: boolean;
      includePrivate: boolean;
      /** Also rows whose subject was deleted (Gitea's heatmap counts them). */
      includeDeleted?: boolean;
    }
  | { kind: 'team'; team: Pick<Models.Team, 'id' | 'orgId' | 'includesAllRepositories'> }
  | { kind: 'repo'; repoId: number };

/**
 * Actors whose activity the viewer may see (Gitea's act_user_id condition): anonymous viewers see public actors
 * that do not keep their activity private; signed-in viewers also limited ones and themselves; an organization's
 * feed also shows rows the organization performed, and a user's feed the rows of organizations the user belongs to.
 */
function actorWhere(cx: ServiceContext, feedOwner: Pick<Models.User, 'id' | 'type'> | null): Where {
  if (isSiteAdmin(cx) && !cx.auth.scope?.publicOnly) return {};
  const viewer = cx.viewer;
  if (!viewer || cx.auth.scope?.publicOnly) return { actUser: { keepActivityPrivate: false, visibility: 'PUBLIC' } };
  const actors: Models.Prisma.UserWhereInput[] = [
    { keepActivityPrivate: false, visibility: { in: ['PUBLIC', 'LIMITED'] } },
    { id: viewer.id },
  ];
  if (feedOwner?.type === 'ORGANIZATION') actors.push({ id: feedOwner.id });
  else if (feedOwner) actors.push({ type: 'ORGANIZATION', orgMembers: { some: { userId: feedOwner.id } } });
  return { actUser: { OR: actors } };
}

/**
 * The Action rows the viewer may read in one feed: not deleted, on repositories the viewer can see, by actors
 * the viewer may see (actorWhere), private rows (of private repositories) only when `includePrivate` (the feed
 * owner, its organization's members, admins; a public-only token never), narrowed to the scope: a user's or
 * organization's materialized rows (`user_id`), a team's repositories in its organization's feed, or a
 * repository's original rows (`user_id = act_user_id`, one per event).
 */
export function activityReadWhere(cx: ServiceContext, scope: FeedScope): Where {
  const and: Where[] = scope.kind === 'user' && scope.includeDeleted ? [] : [{ isDeleted: false }];
  if (!isSiteAdmin(cx) || cx.auth.scope?.publicOnly) and.push({ repo: repoReadWhere(cx) });
  const includePrivate = scope.kind !== 'user' || scope.includePrivate;
  if (!includePrivate || cx.auth.scope?.publicOnly) and.push({ isPrivate: false });
  switch (scope.kind) {
    case 'user':
      and.push(actorWhere(cx, scope.user), { userId: scope.user.id });
      if (scope.onlyPerformedBy) and.push({ actUserId: scope.user.id });
      break;
    case 'team': {
      const teamRepos: Models.Prisma.RepositoryWhereInput[] = [{ teamRepos: { some: { teamId: scope.team.id } } }];
      if (scope.team.includesAllRepositories) teamRepos.push({ ownerId: scope.team.orgId });
      and.push(actorWhere(cx, { id: scope.team.orgId, type: 'ORGANIZATION' }), { userId: scope.team.orgId }, { repo: { OR: teamRepos } });
      break;
    }
    case 'repo':
      and.push(actorWhere(cx, null), { repoId: scope.repoId }, { userId: { equals: cx.db.action.fields.actUserId } });
      break;
  }
  return { AND: and };
}
