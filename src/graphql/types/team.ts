import { encodeGlobalID } from '@pothos/plugin-relay';
import type { Models } from '../../db/client.ts';
import { teamUnitModes } from '../../permissions/teamUnits.ts';
import { unitKey } from '../../permissions/units.ts';
import * as teamService from '../../services/org/team.ts';
import * as teamMemberService from '../../services/org/teamMember.ts';
import * as teamRepoService from '../../services/org/teamRepo.ts';
import { canAdministerTeams, isViewerTeamMember } from '../../services/access/teamAccess.ts';
import { teamReadWhere } from '../../services/org/visibility.ts';
import { builder } from '../builder.ts';
import { tokenReadScope } from '../tokenReadScopes.ts';
import { dbId, dbIdOf, opt, type GlobalId } from '../ids.ts';
import { filteredBy, inherits } from '../policy.ts';
import { writeScope } from '../tokenWriteScopes.ts';
import { OrganizationRef } from './organization.ts';
import { UserRef } from './user.ts';
import { SubscribableRef } from './githubInterfaces.ts';

const TeamVisibilityEnum = builder.enumType('TeamVisibility', {
  description: 'Who may see a team: PRIVATE members and owners; LIMITED organization members; PUBLIC whoever sees the organization.',
  values: { PUBLIC: { value: 'PUBLIC' }, LIMITED: { value: 'LIMITED' }, PRIVATE: { value: 'PRIVATE' } } as const,
});

export const TeamPrivacyEnum = builder.enumType('TeamPrivacy', {
  description: "GitHub's team privacy: SECRET for private teams, VISIBLE for limited and public ones.",
  values: { SECRET: { value: 'SECRET' }, VISIBLE: { value: 'VISIBLE' } } as const,
});

const TeamPermissionEnum = builder.enumType('TeamPermission', {
  description: 'An access level (Gitea perm.AccessMode).',
  values: {
    NONE: { value: 'NONE' },
    READ: { value: 'READ' },
    WRITE: { value: 'WRITE' },
    ADMIN: { value: 'ADMIN' },
    OWNER: { value: 'OWNER' },
  } as const,
});

const TeamBasePermissionEnum = builder.enumType('TeamBasePermission', {
  description:
    "Gitea's `permission` of a team body: ADMIN gives admin authority on every unit; READ and WRITE only set the level of `units`.",
  values: { READ: { value: 'read' }, WRITE: { value: 'write' }, ADMIN: { value: 'admin' } } as const,
});

interface UnitGrantShape {
  unit: string;
  permission: Models.AccessMode;
}

const TeamUnitPermissionRef = builder.objectRef<UnitGrantShape>('TeamUnitPermission').implement({
  description: "A team's access to one repository unit.",
  fields: (t) => ({
    unit: t.exposeString('unit', { description: 'Gitea unit key, e.g. repo.code.' }),
    permission: t.field({ type: TeamPermissionEnum, resolve: (u) => u.permission }),
  }),
});

const TeamUnitPermissionInput = builder.inputType('TeamUnitPermissionInput', {
  description: 'One entry of Gitea units_map.',
  fields: (t) => ({
    unit: t.string({ required: true, description: 'Unit key, e.g. repo.code (unknown keys are ignored).' }),
    permission: t.field({ type: TeamPermissionEnum, required: true }),
  }),
});

/** GraphQL `Team` (GitHub's names; Gitea's permission, units and visibility). */
export const TeamRef = builder.prismaNode('Team', {
  description: 'A team of an organization: members and repositories with per-unit access.',
  interfaces: [SubscribableRef],
  id: { field: 'id' },
  // node(id:): a team the viewer may not read is simply absent.
  ...filteredBy('teamReadWhere'),
  findUnique: (id, ctx) => ({ id: dbId(id), AND: [teamReadWhere(ctx.cx)] }),
  nullable: true,
  fields: (t) => ({
    databaseId: t.exposeInt('id', { description: 'The REST id.' }),
    name: t.exposeString('name'),
    slug: t.exposeString('lowerName', { description: 'The lower-case name, unique in the organization.' }),
    description: t.string({ nullable: true, resolve: (team) => team.description || null }),
    visibility: t.field({ type: TeamVisibilityEnum, resolve: (team) => team.visibility }),
    privacy: t.field({ type: TeamPrivacyEnum, resolve: (team) => (team.visibility === 'PRIVATE' ? 'SECRET' : 'VISIBLE') }),
    permission: t.field({
      type: TeamPermissionEnum,
      description: "The team's authority: NONE unless ADMIN (or OWNER for the Owners team).",
      resolve: (team) => team.authorize,
    }),
    units: t.field({
      type: [TeamUnitPermissionRef],
      ...inherits("a team's unit grants are part of the team (REST units_map)"),
      description: 'Per-unit access (every unit at the team authority for admin and owner teams).',
      select: { units: { select: { type: true, accessMode: true }, orderBy: { id: 'asc' } } },
      resolve: (team) => teamUnitModes(team).map((u) => ({ unit: unitKey(u.type), permission: u.accessMode })),
    }),
    includesAllRepositories: t.exposeBoolean('includesAllRepositories'),
    canCreateOrgRepo: t.exposeBoolean('canCreateOrgRepo'),
    organization: t.relation('org', { type: OrganizationRef, ...inherits('a readable team implies a visible organization (canReadTeam)') }),
    viewerIsAMember: t.boolean({ resolve: (team, _a, ctx) => isViewerTeamMember(ctx.cx, team) }),
    viewerCanAdminister: t.boolean({ resolve: (team, _a, ctx) => canAdministerTeams(ctx.cx, team.orgId) }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});
tokenReadScope(TeamRef, 'organization');

builder.prismaObjectFields(OrganizationRef, (t) => ({
  team: t.prismaField({
    type: TeamRef,
    nullable: true,
    description: 'A team by slug (its lower-case name); null when absent or not readable.',
    ...filteredBy('teamReadWhere'),
    args: { slug: t.arg.string({ required: true }) },
    resolve: (query, org, args, ctx) =>
      ctx.cx.db.team.findFirst({
        ...query,
        where: { AND: [{ orgId: org.id, lowerName: args.slug.toLowerCase() }, teamReadWhere(ctx.cx)] },
      }),
  }),
}));

/** A Team global id's database id; 0 (no team) for an id of another type. */
const teamDbId = (gid: GlobalId): number => dbIdOf(gid, 'Team');

type TeamBodyInput = {
  description?: string | null;
  visibility?: Models.Visibility | null;
  permission?: 'read' | 'write' | 'admin' | null;
  units?: readonly string[] | null;
  unitsMap?: readonly { unit: string; permission: Models.AccessMode }[] | null;
  includesAllRepositories?: boolean | null;
  canCreateOrgRepo?: boolean | null;
};

/** The GraphQL team body as the service's TeamInput (Gitea's strings). */
function teamInput(input: TeamBodyInput & { name?: string | null }): teamService.TeamInput {
  return {
    name: opt(input.name),
    description: opt(input.description),
    permission: opt(input.permission),
    units: opt(input.units),
    unitsMap: input.unitsMap ? Object.fromEntries(input.unitsMap.map((u) => [u.unit, u.permission.toLowerCase()])) : undefined,
    includesAllRepositories: opt(input.includesAllRepositories),
    canCreateOrgRepo: opt(input.canCreateOrgRepo),
    visibility: input.visibility ? input.visibility.toLowerCase() : undefined,
  };
}

builder.relayMutationField(
  'createTeam',
  {
    inputFields: (t) => ({
      organizationLogin: t.string({ required: true }),
      name: t.string({ required: true }),
      description: t.string(),
      visibility: t.field({ type: TeamVisibilityEnum, description: 'Defaults to PRIVATE.' }),
      permission: t.field({ type: TeamBasePermissionEnum }),
      units: t.stringList({ description: 'Deprecated unit key list; each unit gets READ or WRITE per `permission`.' }),
      unitsMap: t.field({ type: [TeamUnitPermissionInput], description: 'Per-unit access; wins over `units`.' }),
      includesAllRepositories: t.boolean(),
      canCreateOrgRepo: t.boolean(),
    }),
  },
  {
    description: 'Create a team (organization owners; as POST /api/v1/orgs/{org}/teams).',
    ...writeScope('organization'),
    resolve: async (_root, { input }, ctx) => ({ team: await teamService.createTeam(ctx.cx, input.organizationLogin, teamInput(input)) }),
  },
  { outputFields: (t) => ({ team: t.field({ type: TeamRef, resolve: (p) => p.team }) }) },
);

builder.relayMutationField(
  'updateTeam',
  {
    inputFields: (t) => ({
      teamId: t.globalID({ required: true }),
      name: t.string({ description: 'Ignored for the Owners team.' }),
      description: t.string(),
      visibility: t.field({ type: TeamVisibilityEnum }),
      permission: t.field({ type: TeamBasePermissionEnum }),
      units: t.stringList(),
      unitsMap: t.field({ type: [TeamUnitPermissionInput] }),
      includesAllRepositories: t.boolean(),
      canCreateOrgRepo: t.boolean(),
    }),
  },
  {
    description: 'Edit a team (organization owners; as PATCH /api/v1/teams/{id}). Only given fields change.',
    ...writeScope('organization'),
    resolve: async (_root, { input }, ctx) => ({ team: await teamService.editTeam(ctx.cx, teamDbId(input.teamId), teamInput(input)) }),
  },
  { outputFields: (t) => ({ team: t.field({ type: TeamRef, resolve: (p) => p.team }) }) },
);

builder.relayMutationField(
  'deleteTeam',
  { inputFields: (t) => ({ teamId: t.globalID({ required: true }) }) },
  {
    description: 'Delete a team (organization owners; not the Owners team; as DELETE /api/v1/teams/{id}).',
    ...writeScope('organization'),
    resolve: async (_root, { input }, ctx) => {
      await teamService.deleteTeam(ctx.cx, teamDbId(input.teamId));
      return { teamId: input.teamId };
    },
  },
  { outputFields: (t) => ({ deletedTeamId: t.id({ resolve: (p) => encodeGlobalID(p.teamId.typename, p.teamId.id) }) }) },
);

builder.relayMutationField(
  'addTeamMember',
  { inputFields: (t) => ({ teamId: t.globalID({ required: true }), login: t.string({ required: true }) }) },
  {
    description: 'Add a user to a team, and to its organization when needed (owners; as PUT /api/v1/teams/{id}/members/{username}).',
    ...writeScope('organization'),
    resolve: (_root, { input }, ctx) => teamMemberService.addTeamMember(ctx.cx, teamDbId(input.teamId), input.login),
  },
  {
    outputFields: (t) => ({
      team: t.field({ type: TeamRef, resolve: (p) => p.team }),
      user: t.field({ type: UserRef, resolve: (p) => p.user }),
    }),
  },
);

builder.relayMutationField(
  'removeTeamMember',
  { inputFields: (t) => ({ teamId: t.globalID({ required: true }), login: t.string({ required: true }) }) },
  {
    description: 'Remove a user from a team (owners; as DELETE /api/v1/teams/{id}/members/{username}).',
    ...writeScope('organization'),
    resolve: async (_root, { input }, ctx) => ({
      team: await teamMemberService.removeTeamMember(ctx.cx, teamDbId(input.teamId), input.login),
    }),
  },
  { outputFields: (t) => ({ team: t.field({ type: TeamRef, resolve: (p) => p.team }) }) },
);

for (const [name, verb, rest] of [
  ['addTeamRepository', 'Add an organization repository to a team', 'PUT'],
  ['removeTeamRepository', 'Remove a repository from a team', 'DELETE'],
] as const) {
  builder.relayMutationField(
    name,
    {
      inputFields: (t) => ({
        teamId: t.globalID({ required: true }),
        owner: t.string({ required: true, description: "The team's organization." }),
        name: t.string({ required: true, description: 'The repository name.' }),
      }),
    },
    {
      description: `${verb} (as ${rest} /api/v1/teams/{id}/repos/{org}/{repo}).`,
      ...writeScope('organization'),
      resolve: async (_root, { input }, ctx) => {
        const change = name === 'addTeamRepository' ? teamRepoService.addTeamRepo : teamRepoService.removeTeamRepo;
        return { team: await change(ctx.cx, teamDbId(input.teamId), input.owner, input.name) };
      },
    },
    { outputFields: (t) => ({ team: t.field({ type: TeamRef, resolve: (p) => p.team }) }) },
  );
}
