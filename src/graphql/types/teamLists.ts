// The team lists with GitHub's arguments: Organization.teams, Team.members and Team.repositories, each through its
// read policy (teamReadWhere, teamMemberReadWhere, repoReadWhere) and filtered by the arguments.
import { prismaConnectionHelpers } from '@pothos/plugin-prisma';
import type { Models } from '../../db/client.ts';
import { repoNameWhere, teamListWhere, teamMemberListWhere } from '../../services/org/teamFilter.ts';
import * as teamRepoService from '../../services/org/teamRepo.ts';
import { teamMemberReadWhere, teamReadWhere } from '../../services/org/visibility.ts';
import { repoReadWhere } from '../../services/repo/visibility.ts';
import { builder } from '../builder.ts';
import type { GraphQLContext } from '../context.ts';
import { opt } from '../ids.ts';
import { filteredBy } from '../policy.ts';
import { bothNodePaths } from '../selection.ts';
import { totalOf, withTotal } from '../totalCount.ts';
import { directionOf, orderInput } from './orderInput.ts';
import { OrganizationRef } from './organization.ts';
import { RepositoryRef } from './repository.ts';
import { TeamPrivacyEnum, TeamRef } from './team.ts';
import { UserRef } from './user.ts';

const TeamOrderInput = orderInput('TeamOrder', ['NAME'] as const, 'team connections');
const TeamRoleEnum = builder.enumType('TeamRole', { description: "The viewer's role on a team.", values: ['ADMIN', 'MEMBER'] as const });
const TeamNotificationSettingEnum = builder.enumType('TeamNotificationSetting', {
  description: "A team's notification setting: Gitea's teams always notify.",
  values: ['NOTIFICATIONS_DISABLED', 'NOTIFICATIONS_ENABLED'] as const,
});

builder.prismaObjectFields(OrganizationRef, (t) => ({
  teams: t.relatedConnection(
    'orgTeams',
    {
      type: TeamRef,
      cursor: 'id',
      totalCount: true,
      description: "Teams the viewer may read, by name (GitHub's filters: Gitea teams are all root teams and none is LDAP-mapped).",
      ...filteredBy('teamReadWhere'),
      args: {
        query: t.arg.string({ description: 'Only teams whose name contains this.' }),
        privacy: t.arg({ type: TeamPrivacyEnum }),
        role: t.arg({ type: TeamRoleEnum, description: "MEMBER: the viewer's teams; ADMIN: teams the viewer administers (an owner's)." }),
        userLogins: t.arg.stringList({ description: 'Only teams one of these users belongs to.' }),
        ldapMapped: t.arg.boolean({ description: 'true matches none: Gitea does not map teams to LDAP groups.' }),
        notificationSetting: t.arg({ type: TeamNotificationSettingEnum, description: 'NOTIFICATIONS_DISABLED matches none.' }),
        rootTeamsOnly: t.arg.boolean({ defaultValue: false, description: 'Gitea teams do not nest: every team is a root team.' }),
        orderBy: t.arg({ type: TeamOrderInput }),
      },
      query: (args, ctx) => ({
        where: {
          AND: [
            teamReadWhere(ctx.cx),
            teamListWhere(ctx.cx, {
              query: opt(args.query),
              privacy: opt(args.privacy),
              role: opt(args.role),
              userLogins: opt(args.userLogins),
              ldapMapped: opt(args.ldapMapped),
              notificationSetting: opt(args.notificationSetting),
            }),
          ],
        },
        orderBy: [{ lowerName: args.orderBy ? directionOf(args.orderBy) : 'asc' }],
      }),
    },
    { name: 'TeamConnection' },
    { name: 'TeamEdge' },
  ),
}));

const TeamMemberOrderInput = orderInput('TeamMemberOrder', ['CREATED_AT', 'LOGIN'] as const, 'team member connections');
const TeamMembershipTypeEnum = builder.enumType('TeamMembershipType', {
  description: 'Which members of a team: Gitea teams have no child teams, so CHILD_TEAM finds none.',
  values: ['ALL', 'CHILD_TEAM', 'IMMEDIATE'] as const,
});
const TeamMemberRoleEnum = builder.enumType('TeamMemberRole', {
  description: "A member's role on a team: Gitea teams have no maintainers, so every member is a MEMBER.",
  values: ['MAINTAINER', 'MEMBER'] as const,
});

interface MemberArgs {
  query?: string | null;
  membership?: 'ALL' | 'CHILD_TEAM' | 'IMMEDIATE' | null;
  role?: 'MAINTAINER' | 'MEMBER' | null;
  orderBy?: { field: 'CREATED_AT' | 'LOGIN'; direction: 'ASC' | 'DESC' } | null;
}

/** The members the arguments let through, inside teamMemberReadWhere. */
const memberWhere = (ctx: GraphQLContext, args: MemberArgs): Models.Prisma.TeamUserWhereInput => ({
  AND: [
    teamMemberReadWhere(ctx.cx),
    teamMemberListWhere(ctx.cx, { query: opt(args.query), membership: opt(args.membership), role: opt(args.role) }),
  ],
});

const teamMembers = prismaConnectionHelpers(builder, 'TeamUser', {
  cursor: 'id',
  args: (t) => ({
    query: t.string({ description: 'Only members whose login or name contains this.' }),
    membership: t.field({ type: TeamMembershipTypeEnum, defaultValue: 'ALL' }),
    role: t.field({ type: TeamMemberRoleEnum }),
    orderBy: t.field({ type: TeamMemberOrderInput, description: 'CREATED_AT is when the user joined the team; by it when absent.' }),
  }),
  select: (nodeSelection) => ({ user: nodeSelection(true) }),
  query: (args, ctx) => ({
    where: memberWhere(ctx, args),
    orderBy:
      args.orderBy?.field === 'LOGIN'
        ? { user: { lowerName: directionOf(args.orderBy) } }
        : { id: args.orderBy ? directionOf(args.orderBy) : 'asc' },
  }),
  resolveNode: (row) => row.user,
});

const TeamRepositoryOrderInput = orderInput(
  'TeamRepositoryOrder',
  ['CREATED_AT', 'NAME', 'PERMISSION', 'PUSHED_AT', 'STARGAZERS', 'UPDATED_AT'] as const,
  'team repository connections',
);
type TeamRepositoryOrderField = 'CREATED_AT' | 'NAME' | 'PERMISSION' | 'PUSHED_AT' | 'STARGAZERS' | 'UPDATED_AT';

/** The repository column of an order; PERMISSION is the team's, the same on every repository (then by when it was added). */
const REPO_ORDER: Record<TeamRepositoryOrderField, keyof Models.Prisma.RepositoryOrderByWithRelationInput | null> = {
  CREATED_AT: 'createdAt',
  NAME: 'lowerName',
  PERMISSION: null,
  PUSHED_AT: 'updatedAt',
  STARGAZERS: 'numStars',
  UPDATED_AT: 'updatedAt',
};

const teamRepos = prismaConnectionHelpers(builder, 'TeamRepo', {
  cursor: 'id',
  args: (t) => ({
    query: t.string({ description: 'Only repositories whose name contains this.' }),
    orderBy: t.field({ type: TeamRepositoryOrderInput, description: 'In the order they were added when absent.' }),
  }),
  select: (nodeSelection) => ({ repo: nodeSelection(true) }),
  query: (args, ctx) => {
    const column = args.orderBy ? REPO_ORDER[args.orderBy.field] : null;
    const direction = args.orderBy ? directionOf(args.orderBy) : 'asc';
    return {
      where: { repo: { AND: [repoReadWhere(ctx.cx), repoNameWhere(opt(args.query))] } },
      orderBy: column ? { repo: { [column]: direction } } : { id: direction },
    };
  },
  resolveNode: (row) => row.repo,
});

builder.prismaObjectFields(TeamRef, (t) => ({
  members: t.connection(
    {
      type: UserRef,
      description: 'Members (only organization members and site admins see them).',
      args: teamMembers.getArgs(),
      ...filteredBy('teamMemberReadWhere'),
      select: (args, ctx, nestedSelection) => ({
        members: teamMembers.getQuery(args, ctx, bothNodePaths(nestedSelection)),
        _count: { select: { members: { where: memberWhere(ctx, args) } } },
      }),
      resolve: (team, args, ctx) => withTotal(teamMembers.resolve(team.members, args, ctx), team._count.members),
    },
    { name: 'TeamMemberConnection', fields: (c) => ({ totalCount: c.int({ resolve: totalOf }) }) },
    { name: 'TeamMemberEdge' },
  ),
  repositories: t.connection(
    {
      type: RepositoryRef,
      description:
        "The team's repositories the viewer can see; totalCount counts what REST's X-Total-Count counts (teamRepoCountWhere: all of them, as Gitea, except for public-only tokens).",
      args: teamRepos.getArgs(),
      ...filteredBy('repoReadWhere'),
      select: (args, ctx, nestedSelection) => ({
        repos: teamRepos.getQuery(args, ctx, bothNodePaths(nestedSelection)),
        _count: {
          select: { repos: { where: { repo: { AND: [teamRepoService.teamRepoCountWhere(ctx.cx), repoNameWhere(opt(args.query))] } } } },
        },
      }),
      resolve: (team, args, ctx) => withTotal(teamRepos.resolve(team.repos, args, ctx), team._count.repos),
    },
    { name: 'TeamRepositoryConnection', fields: (c) => ({ totalCount: c.int({ resolve: totalOf }) }) },
    { name: 'TeamRepositoryEdge' },
  ),
}));
