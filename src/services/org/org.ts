import type { DbLike, Models } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/prismaErrors.ts';
import { PermissionDeniedError, ValidationError } from '../../errors.ts';
import { visibleVisibilities } from '../../permissions/userVisibility.ts';
import { ALL_UNITS, READ_ONLY_UNITS } from '../../permissions/units.ts';
import { isSiteAdmin, requireTokenScope, requireViewer } from '../access/guards.ts';
import { requireOrg, requireOrgOwner } from '../access/orgAccess.ts';
import { withTx, type ServiceContext } from '../context.ts';
import { skipTake, type ListOptions, type ListWindow, type Page } from '../paging.ts';
import { getUserByName } from '../user/user.ts';
import { validateMaxSize, validateUsername, validateWebsite } from '../user/validate.ts';

type User = Models.User;
type Visibility = Models.Visibility;

/** The name and attributes of Gitea's Owners team, created with every organization. */
export const OWNERS_TEAM = 'Owners';

export interface OrgProfileInput {
  fullName?: string;
  email?: string;
  description?: string;
  website?: string;
  location?: string;
  visibility?: Visibility;
  repoAdminChangeTeamAccess?: boolean;
  /** Forgegraph: only organization owners may change a repository's privacy. */
  restrictVisibilityChangesToOwners?: boolean;
}

export interface CreateOrgInput extends OrgProfileInput {
  name: string;
}

function validateProfile(input: OrgProfileInput): void {
  validateMaxSize(input.fullName, 100, 'full_name');
  validateMaxSize(input.email, 255, 'email');
  validateMaxSize(input.description, 255, 'description');
  validateMaxSize(input.website, 255, 'website');
  validateMaxSize(input.location, 50, 'location');
  validateWebsite(input.website);
}

/**
 * Creates an organization owned by the viewer: the viewer joins a new Owners team (owner authority,
 * every repository, may create repositories, limited visibility, owner on every unit but the external ones).
 * @throws UnauthenticatedError, PermissionDeniedError (not allowed to create organizations), ValidationError
 */
export async function createOrg(cx: ServiceContext, input: CreateOrgInput): Promise<User> {
  const viewer = requireViewer(cx);
  requireTokenScope(cx, 'organization', 'write');
  validateUsername(input.name);
  validateProfile(input);
  if (!viewer.isAdmin && !viewer.allowCreateOrganization) throw new PermissionDeniedError('not allowed to create org');
  try {
    return await withTx(cx, async (tx, emit) => {
      if (await tx.user.findUnique({ where: { lowerName: input.name.toLowerCase() }, select: { id: true } })) {
        throw new ValidationError(`user already exists [name: ${input.name}]`);
      }
      const org = await tx.user.create({
        data: {
          type: 'ORGANIZATION',
          name: input.name,
          lowerName: input.name.toLowerCase(),
          fullName: input.fullName ?? '',
          email: input.email ?? '',
          description: input.description ?? '',
          website: input.website ?? '',
          location: input.location ?? '',
          visibility: input.visibility ?? 'PUBLIC',
          repoAdminChangeTeamAccess: input.repoAdminChangeTeamAccess ?? false,
          restrictVisibilityChangesToOwners: input.restrictVisibilityChangesToOwners ?? false,
          numTeams: 1,
          numMembers: 1,
        },
      });
      const team = await tx.team.create({
        data: {
          orgId: org.id,
          name: OWNERS_TEAM,
          lowerName: OWNERS_TEAM.toLowerCase(),
          authorize: 'OWNER',
          includesAllRepositories: true,
          canCreateOrgRepo: true,
          visibility: 'LIMITED',
          numMembers: 1,
        },
      });
      await tx.teamUnit.createMany({
        data: ALL_UNITS.map((type) => ({
          orgId: org.id,
          teamId: team.id,
          type,
          accessMode: READ_ONLY_UNITS.includes(type) ? 'READ' : 'OWNER',
        })),
      });
      await tx.orgUser.create({ data: { orgId: org.id, userId: viewer.id, isPublic: false } });
      await tx.teamUser.create({ data: { orgId: org.id, teamId: team.id, userId: viewer.id } });
      emit({ type: 'org.created', orgId: org.id, actorId: viewer.id });
      return org;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new ValidationError(`user already exists [name: ${input.name}]`);
    throw err;
  }
}

/** The organization named `name` as the viewer may see it. @throws NotFoundError */
export async function getOrg(cx: ServiceContext, name: string): Promise<User> {
  requireTokenScope(cx, 'organization', 'read');
  return (await requireOrg(cx, name)).org;
}

/** An organization's contact e-mail as the viewer may see it: hidden ('') from anonymous callers (Gitea org.Get). */
export function visibleOrgEmail(cx: ServiceContext, org: Pick<User, 'email'>): string {
  return cx.viewer || isSiteAdmin(cx) ? org.email : '';
}

/** Every organization the viewer may list (GET /orgs), alphabetically: public; limited when signed in; private for admins. */
export async function listOrgs(cx: ServiceContext, opts: ListOptions | ListWindow): Promise<Page<User>> {
  const where = orgListFilter(cx);
  const [items, total] = await Promise.all([
    // Gitea SearchOrderByAlphabetically (lower_name: the same order on SQLite and PostgreSQL).
    cx.db.user.findMany({ where, orderBy: { lowerName: 'asc' }, ...skipTake(opts) }),
    cx.db.user.count({ where }),
  ]);
  return { items, total };
}

/** The filter behind GET /orgs, for callers that page themselves (GraphQL `organizations`). */
export function orgListFilter(cx: ServiceContext): Models.Prisma.UserWhereInput {
  requireTokenScope(cx, 'organization', 'read');
  const visibility = cx.auth.scope?.publicOnly
    ? ['PUBLIC' as const]
    : isSiteAdmin(cx)
      ? (['PUBLIC', 'LIMITED', 'PRIVATE'] as const)
      : visibleVisibilities(cx.viewer);
  return { type: 'ORGANIZATION', visibility: { in: [...visibility] } };
}

/**
 * A Prisma filter matching organizations the viewer may see (public; limited when signed in; private for
 * members and admins) — for node(id:) and relation paths that do not go through requireOrg.
 */
export function visibleOrgFilter(cx: ServiceContext): Models.Prisma.UserWhereInput {
  if (isSiteAdmin(cx)) return { type: 'ORGANIZATION' };
  const viewer = cx.viewer;
  const or: Models.Prisma.UserWhereInput[] = [{ visibility: { in: visibleVisibilities(viewer) } }];
  if (viewer) or.push({ orgMembers: { some: { userId: viewer.id } } });
  return { type: 'ORGANIZATION', OR: or };
}

/**
 * The organizations `username` belongs to, as the viewer may see them (GET /users/{u}/orgs, /user/orgs):
 * all of them for the user itself and admins; otherwise only public memberships of organizations the
 * viewer can see.
 * @throws NotFoundError when the user is not visible
 */
export async function listUserOrgs(cx: ServiceContext, username: string, opts: ListOptions | ListWindow): Promise<Page<User>> {
  requireTokenScope(cx, 'organization', 'read');
  const user = await getUserByName(cx, username);
  const showAll = isSiteAdmin(cx) || cx.viewer?.id === user.id;
  const where: Models.Prisma.UserWhereInput = {
    type: 'ORGANIZATION',
    orgMembers: { some: { userId: user.id, ...(showAll ? {} : { isPublic: true }) } },
  };
  if (!showAll) {
    const visible: Models.Prisma.UserWhereInput[] = [{ visibility: { in: visibleVisibilities(cx.viewer) } }];
    if (cx.viewer) visible.push({ orgMembers: { some: { userId: cx.viewer.id } } });
    where.OR = visible;
  }
  if (cx.auth.scope?.publicOnly) where.visibility = 'PUBLIC';
  const [items, total] = await Promise.all([
    cx.db.user.findMany({ where, orderBy: { name: 'asc' }, ...skipTake(opts) }),
    cx.db.user.count({ where }),
  ]);
  return { items, total };
}

/**
 * A filter over OrgUser rows for "which organizations does a user belong to", as the viewer may see them,
 * for any user at once (GraphQL `User.organizations`): the viewer's own memberships; otherwise public
 * memberships of organizations the viewer can see; everything for admins.
 */
export function userMembershipFilter(cx: ServiceContext): Models.Prisma.OrgUserWhereInput {
  if (isSiteAdmin(cx)) return {};
  const viewer = cx.viewer;
  const orgVisible: Models.Prisma.UserWhereInput = cx.auth.scope?.publicOnly
    ? { visibility: 'PUBLIC' }
    : { OR: [{ visibility: { in: visibleVisibilities(viewer) } }, ...(viewer ? [{ orgMembers: { some: { userId: viewer.id } } }] : [])] };
  const or: Models.Prisma.OrgUserWhereInput[] = [{ isPublic: true, org: orgVisible }];
  if (viewer && !cx.auth.scope?.publicOnly) or.push({ userId: viewer.id });
  return { OR: or };
}

/** Edits an organization's profile (owners). Only given fields change. @throws NotFoundError, PermissionDeniedError, ValidationError */
export async function editOrg(cx: ServiceContext, name: string, input: OrgProfileInput): Promise<User> {
  requireTokenScope(cx, 'organization', 'write');
  const access = await requireOrg(cx, name);
  requireOrgOwner(access);
  validateProfile(input);
  return withTx(cx, async (tx, emit) => {
    const org = await tx.user.update({
      where: { id: access.org.id },
      data: {
        fullName: input.fullName,
        email: input.email,
        description: input.description,
        website: input.website,
        location: input.location,
        visibility: input.visibility,
        repoAdminChangeTeamAccess: input.repoAdminChangeTeamAccess,
        restrictVisibilityChangesToOwners: input.restrictVisibilityChangesToOwners,
      },
    });
    emit({ type: 'org.updated', orgId: org.id, actorId: cx.viewer?.id ?? null });
    return org;
  });
}

/** Deletes an organization (owners) that owns no repositories. @throws NotFoundError, PermissionDeniedError, ValidationError */
export async function deleteOrg(cx: ServiceContext, name: string): Promise<void> {
  requireTokenScope(cx, 'organization', 'write');
  const access = await requireOrg(cx, name);
  requireOrgOwner(access);
  await withTx(cx, async (tx, emit) => {
    if ((await tx.repository.count({ where: { ownerId: access.org.id } })) > 0) {
      throw new ValidationError(`organization still has ownership of repositories [uid: ${access.org.id}]`);
    }
    await tx.user.delete({ where: { id: access.org.id } });
    emit({ type: 'org.deleted', orgId: access.org.id, name: access.org.name, actorId: cx.viewer?.id ?? null });
  });
}

/** Re-reads an organization's counters (members, teams) from their rows, inside a transaction. */
export async function refreshOrgCounters(tx: DbLike, orgId: number): Promise<void> {
  const [members, teams] = await Promise.all([tx.orgUser.count({ where: { orgId } }), tx.team.count({ where: { orgId } })]);
  await tx.user.update({ where: { id: orgId }, data: { numMembers: members, numTeams: teams } });
}
