import type { DbLike, Models } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/prismaErrors.ts';
import { NotFoundError, PermissionDeniedError, ValidationError } from '../../errors.ts';
import { visibleVisibilities } from '../../permissions/userVisibility.ts';
import { isSiteAdmin, requireSiteAdmin, requireTokenScope, requireWriter } from '../access/guards.ts';
import { everyUnitRows } from '../../permissions/teamUnits.ts';
import { requireOrg, requireOrgOwner } from '../access/orgAccess.ts';
import { withTx, type ServiceContext } from '../context.ts';
import { skipTake, type ListOptions, type ListWindow, type Page } from '../paging.ts';
import { findUserByName, getUserByName } from '../user/user.ts';
import { validateMaxSize, validateUsername, validateWebsite } from '../user/validate.ts';
import { userOrgReadWhere } from './visibility.ts';
import { removeAvatarFile } from '../avatar/store.ts';

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
  const viewer = requireWriter(cx, 'write:organization');
  return insertOrg(cx, viewer, input);
}

/**
 * Creates an organization owned by `username` (POST /admin/users/{username}/orgs, Gitea admin CreateOrg): site
 * admins only; the owner must be a user (not an organization) allowed to create organizations, as for
 * createOrg. @throws UnauthenticatedError, PermissionDeniedError, NotFoundError, ValidationError
 */
export async function adminCreateOrg(cx: ServiceContext, username: string, input: CreateOrgInput): Promise<User> {
  requireSiteAdmin(cx, 'write');
  const owner = await findUserByName(cx.db, username);
  if (!owner) throw new NotFoundError(`user does not exist [uid: 0, name: ${username}]`, { name: username });
  if (owner.type === 'ORGANIZATION') throw new ValidationError(`${owner.name} is an organization not a user`, { name: owner.name });
  return insertOrg(cx, owner, input);
}

/** Every organization, whatever its visibility, alphabetically (GET /admin/orgs, Gitea AdminGetAllOrgs): site admins only. */
export async function adminListOrgs(cx: ServiceContext, opts: ListOptions | ListWindow): Promise<Page<User>> {
  requireSiteAdmin(cx, 'read');
  const where: Models.Prisma.UserWhereInput = { type: 'ORGANIZATION' };
  const [items, total] = await Promise.all([
    cx.db.user.findMany({ where, orderBy: { lowerName: 'asc' }, ...skipTake(opts) }),
    cx.db.user.count({ where }),
  ]);
  return { items, total };
}

/** The organization row, its Owners team with `owner` in it, and the `org.created` event, in one transaction. */
async function insertOrg(cx: ServiceContext, owner: User, input: CreateOrgInput): Promise<User> {
  validateUsername(input.name);
  validateProfile(input);
  if (!owner.isAdmin && !owner.allowCreateOrganization) throw new PermissionDeniedError('not allowed to create org');
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
      await tx.teamUnit.createMany({ data: everyUnitRows('OWNER').map((u) => ({ ...u, orgId: org.id, teamId: team.id })) });
      await tx.orgUser.create({ data: { orgId: org.id, userId: owner.id, isPublic: false } });
      await tx.teamUser.create({ data: { orgId: org.id, teamId: team.id, userId: owner.id } });
      emit({ type: 'org.created', orgId: org.id, actorId: cx.viewer?.id ?? owner.id });
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
 * The organizations `username` belongs to, as the viewer may see them (GET /users/{u}/orgs, /user/orgs;
 * userOrgReadWhere): all of them for the user itself and admins; otherwise only public memberships of
 * organizations the viewer can see.
 * @throws NotFoundError when the user is not visible
 */
export async function listUserOrgs(cx: ServiceContext, username: string, opts: ListOptions | ListWindow): Promise<Page<User>> {
  requireTokenScope(cx, 'organization', 'read');
  const user = await getUserByName(cx, username);
  const where: Models.Prisma.UserWhereInput = {
    type: 'ORGANIZATION',
    orgMembers: { some: { AND: [{ userId: user.id }, userOrgReadWhere(cx)] } },
  };
  const [items, total] = await Promise.all([
    cx.db.user.findMany({ where, orderBy: { name: 'asc' }, ...skipTake(opts) }),
    cx.db.user.count({ where }),
  ]);
  return { items, total };
}

/** Edits an organization's profile (owners). Only given fields change. @throws NotFoundError, PermissionDeniedError, ValidationError */
export async function editOrg(cx: ServiceContext, name: string, input: OrgProfileInput): Promise<User> {
  const access = await requireOrg(cx, name);
  requireOrgOwner(cx, access, 'write:organization');
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
  const access = await requireOrg(cx, name);
  requireOrgOwner(cx, access, 'write:organization');
  await withTx(cx, async (tx, emit) => {
    if ((await tx.repository.count({ where: { ownerId: access.org.id } })) > 0) {
      throw new ValidationError(`organization still has ownership of repositories [uid: ${access.org.id}]`);
    }
    await tx.user.delete({ where: { id: access.org.id } });
    emit({ type: 'org.deleted', orgId: access.org.id, name: access.org.name, actorId: cx.viewer?.id ?? null });
  });
  await removeAvatarFile(cx.config.avatars, 'user', access.org.avatar);
}

/** Re-reads an organization's counters (members, teams) from their rows, inside a transaction. */
export async function refreshOrgCounters(tx: DbLike, orgId: number): Promise<void> {
  const [members, teams] = await Promise.all([tx.orgUser.count({ where: { orgId } }), tx.team.count({ where: { orgId } })]);
  await tx.user.update({ where: { id: orgId }, data: { numMembers: members, numTeams: teams } });
}
