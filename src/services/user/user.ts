import { userUpdatePlan } from './updatePlan.ts';
import { hashPassword } from '../../auth/password.ts';
import type { DbLike, Models } from '../../db/client.ts';
import { containsInsensitive } from '../../db/filters.ts';
import { isUniqueViolation } from '../../db/prismaErrors.ts';
import { InvalidArgumentError, NotFoundError, PermissionDeniedError, ValidationError } from '../../errors.ts';
import { canSeeUser, visibleVisibilities } from '../../permissions/userVisibility.ts';
import { isSiteAdmin, requireSiteAdmin, requireViewer } from '../access/guards.ts';
import { withTx, type ServiceContext } from '../context.ts';
import { skipTake, type ListOptions, type Page } from '../paging.ts';
import { emailProblem, validateMaxSize, validateUsernameAvailable, validateUsernameSyntax, validateWebsite } from './validate.ts';
import { removeAvatarFile } from '../avatar/store.ts';

type User = Models.User;
type Visibility = Models.Visibility;

/** Finds a user or organization by login (case-insensitive) without visibility checks; null when absent. */
export function findUserByName(db: DbLike, name: string): Promise<User | null> {
  return db.user.findUnique({ where: { lowerName: name.toLowerCase() } });
}

/** The account named `name` as the viewer may see it. @throws NotFoundError when absent or invisible. */
export async function getUserByName(cx: ServiceContext, name: string): Promise<User> {
  const user = await findUserByName(cx.db, name);
  if (!user || !canSeeUser(cx.viewer, user, { system: isSiteAdmin(cx) })) {
    throw new NotFoundError(`user redirect does not exist [name: ${name.toLowerCase()}]`, { name });
  }
  requirePublicUserForPublicOnlyToken(cx, user);
  return user;
}

/** Gitea's checkTokenPublicOnly for the user category: a public-only token reaches public accounts only. @throws PermissionDeniedError */
function requirePublicUserForPublicOnlyToken(cx: ServiceContext, user: User): void {
  if (cx.auth.scope?.publicOnly && user.visibility !== 'PUBLIC') throw new PermissionDeniedError('token scope is limited to public users');
}

/** An individual (non-organization) user by login, for admin operations. @throws NotFoundError */
async function getIndividualForAdmin(cx: ServiceContext, name: string, level: 'read' | 'write' = 'write'): Promise<User> {
  requireSiteAdmin(cx, level);
  const user = await findUserByName(cx.db, name);
  if (!user) throw new NotFoundError(`user redirect does not exist [name: ${name.toLowerCase()}]`, { name });
  return user;
}

/** The signed-in viewer. @throws UnauthenticatedError */
export function getViewer(cx: ServiceContext): User {
  const viewer = requireViewer(cx);
  requirePublicUserForPublicOnlyToken(cx, viewer);
  return viewer;
}

export interface SearchUsersInput extends ListOptions {
  q?: string;
  uid?: number;
}

/**
 * Public user search (GET /users/search): individual, active users the viewer may see, matched on
 * login, full name or a public e-mail address, ordered by name.
 */
export async function searchUsers(cx: ServiceContext, input: SearchUsersInput): Promise<Page<User>> {
  const admin = isSiteAdmin(cx);
  const where: Models.Prisma.UserWhereInput = { type: 'INDIVIDUAL', isActive: true };
  const and: Models.Prisma.UserWhereInput[] = [];
  if (!admin) {
    // Gitea's BuildCanSeeUserCondition: the visible visibilities (none for restricted users), and always oneself.
    const viewer = cx.viewer;
    const visible = viewer?.isRestricted ? [] : visibleVisibilities(viewer);
    and.push({ OR: [{ visibility: { in: visible } }, ...(viewer ? [{ id: viewer.id }] : [])] });
  }
  if (cx.auth.scope?.publicOnly) and.push({ visibility: 'PUBLIC' });
  where.AND = and;
  if (input.uid) where.id = input.uid;
  const q = input.q?.trim();
  if (q) where.OR = keywordFilter(cx, q, admin);
  const [items, total] = await Promise.all([
    cx.db.user.findMany({ where, orderBy: [{ name: 'asc' }, { id: 'asc' }], ...skipTake(input) }),
    cx.db.user.count({ where }),
  ]);
  return { items, total };
}

function keywordFilter(cx: ServiceContext, q: string, admin: boolean): Models.Prisma.UserWhereInput[] {
  const provider = cx.config.dbProvider;
  const email: Models.Prisma.UserWhereInput = { email: containsInsensitive(provider, q) };
  const emailVisible: Models.Prisma.UserWhereInput = admin
    ? email
    : { AND: [email, { OR: [{ keepEmailPrivate: false }, ...(cx.viewer ? [{ id: cx.viewer.id }] : [])] }] };
  return [{ lowerName: { contains: q.toLowerCase() } }, { fullName: containsInsensitive(provider, q) }, emailVisible];
}

export interface AdminListUsersInput extends ListOptions {
  q?: string;
  sourceId?: number;
  loginName?: string;
  visibility?: Visibility;
  isActive?: boolean;
  isAdmin?: boolean;
  isRestricted?: boolean;
  isProhibitLogin?: boolean;
  /** `name` (default), `created`, `updated` or `id`. */
  sort?: string;
  /** `asc` (default) or `desc`; read only when `sort` is given (Gitea's ResolveSortOrder). */
  order?: string;
}

const ADMIN_USER_SORT = { name: 'name', created: 'createdAt', updated: 'updatedAt', id: 'id' } as const;

/**
 * Every individual user, with the admin filters of GET /admin/users.
 * @throws PermissionDeniedError; ValidationError for an unknown sort mode or order (Gitea's messages)
 */
export async function adminListUsers(cx: ServiceContext, input: AdminListUsersInput): Promise<Page<User>> {
  const where = adminUserFilter(cx, input);
  const dir = input.sort ? input.order || 'asc' : 'asc';
  if (dir !== 'asc' && dir !== 'desc') throw new ValidationError(`Invalid sort order: ${JSON.stringify(dir)}`);
  const sort = input.sort || 'name';
  if (!Object.hasOwn(ADMIN_USER_SORT, sort)) throw new ValidationError(`Invalid sort mode: ${JSON.stringify(sort)}`);
  const column = ADMIN_USER_SORT[sort as keyof typeof ADMIN_USER_SORT];
  const orderBy = [{ [column]: dir }, { id: dir }] as Models.Prisma.UserOrderByWithRelationInput[];
  const [items, total] = await Promise.all([cx.db.user.findMany({ where, orderBy, ...skipTake(input) }), cx.db.user.count({ where })]);
  return { items, total };
}

/**
 * The filter behind the admin user list, for callers that page themselves (GraphQL `users`).
 * @throws UnauthenticatedError, PermissionDeniedError when the viewer is not a site admin
 */
export function adminUserFilter(
  cx: ServiceContext,
  input: Omit<AdminListUsersInput, 'page' | 'pageSize' | 'sort' | 'order'>,
): Models.Prisma.UserWhereInput {
  requireSiteAdmin(cx, 'read');
  const where: Models.Prisma.UserWhereInput = { type: 'INDIVIDUAL' };
  if (input.sourceId !== undefined) where.loginSource = input.sourceId;
  if (input.loginName) where.loginName = input.loginName;
  if (input.visibility) where.visibility = input.visibility;
  if (input.isActive !== undefined) where.isActive = input.isActive;
  if (input.isAdmin !== undefined) where.isAdmin = input.isAdmin;
  if (input.isRestricted !== undefined) where.isRestricted = input.isRestricted;
  if (input.isProhibitLogin !== undefined) where.prohibitLogin = input.isProhibitLogin;
  const q = input.q?.trim();
  if (q) where.OR = keywordFilter(cx, q, true);
  return where;
}

export interface CreateUserInput {
  username: string;
  email: string;
  password?: string;
  fullName?: string;
  loginName?: string;
  sourceId?: number;
  /** Defaults to true, as Gitea's admin API and CLI do. */
  mustChangePassword?: boolean;
  restricted?: boolean;
  visibility?: Visibility;
  createdAt?: Date;
  admin?: boolean;
}

/**
 * Creates an individual user (site admins and the CLI only), with the e-mail as its activated primary address.
 * @throws PermissionDeniedError, ValidationError (name/e-mail rules, taken), InvalidArgumentError (password policy)
 */
export async function createUser(cx: ServiceContext, input: CreateUserInput): Promise<User> {
  requireSiteAdmin(cx, 'write');
  validateUsernameSyntax(input.username);
  validateMaxSize(input.fullName, 100, 'full_name');
  validateMaxSize(input.password, 255, 'password');
  const problem = emailProblem(input.email);
  if (problem) throw new ValidationError(problem);
  if (input.sourceId) throw new ValidationError(`login source does not exist [id: ${input.sourceId}]`);
  const password = input.password ?? '';
  if (password.length < cx.config.minPasswordLength) throw new InvalidArgumentError('PasswordIsRequired');
  validateUsernameAvailable(input.username);
  const passwordHash = await hashPassword(password, cx.config.passwordHash);
  const lowerEmail = input.email.toLowerCase();
  try {
    return await withTx(cx, async (tx, emit) => {
      if (await findUserByName(tx, input.username)) {
        throw new ValidationError(`user already exists [name: ${input.username}]`);
      }
      if (await tx.emailAddress.findUnique({ where: { lowerEmail } })) {
        throw new ValidationError(`e-mail already in use [email: ${input.email}]`);
      }
      const user = await tx.user.create({
        data: {
          name: input.username,
          lowerName: input.username.toLowerCase(),
          email: input.email,
          fullName: input.fullName ?? '',
          loginName: input.loginName ?? '',
          passwordHash,
          mustChangePassword: input.mustChangePassword ?? true,
          isRestricted: input.restricted ?? false,
          isAdmin: input.admin ?? false,
          visibility: input.visibility ?? 'PUBLIC',
          ...(input.createdAt ? { createdAt: input.createdAt } : {}),
          emailAddresses: { create: { email: input.email, lowerEmail, isActivated: true, isPrimary: true } },
        },
      });
      emit({ type: 'user.created', userId: user.id, actorId: cx.viewer?.id ?? null });
      return user;
    });
  } catch (err) {
    // A concurrent create of the same name or address loses the race here rather than in the checks above.
    if (isUniqueViolation(err)) throw new ValidationError(`user already exists [name: ${input.username}]`);
    throw err;
  }
}

export interface EditUserInput {
  /** REST always sends it (Gitea binds it as required); other callers may leave it unchanged. */
  loginName?: string;
  sourceId?: number;
  password?: string;
  mustChangePassword?: boolean;
  prohibitLogin?: boolean;
  email?: string;
  fullName?: string;
  website?: string;
  location?: string;
  description?: string;
  active?: boolean;
  admin?: boolean;
  visibility?: Visibility;
  allowGitHook?: boolean;
  allowImportLocal?: boolean;
  maxRepoCreation?: number;
  allowCreateOrganization?: boolean;
  restricted?: boolean;
}

/**
 * Admin edit of a user (PATCH /admin/users/{username}): only given fields change; an e-mail becomes the
 * activated primary address; the last admin cannot lose admin rights.
 * @throws PermissionDeniedError, NotFoundError, InvalidArgumentError (password, e-mail, last admin), ValidationError
 */
export async function editUser(cx: ServiceContext, username: string, input: EditUserInput): Promise<User> {
  const target = await getIndividualForAdmin(cx, username);
  validateMaxSize(input.fullName, 100, 'full_name');
  validateMaxSize(input.location, 50, 'location');
  validateMaxSize(input.description, 255, 'description');
  validateMaxSize(input.email, 254, 'email');
  validateMaxSize(input.password, 255, 'password');
  validateMaxSize(input.website, 255, 'website');
  validateWebsite(input.website);
  if (input.sourceId) throw new ValidationError(`login source does not exist [id: ${input.sourceId}]`);
  if (input.password && input.password.length < cx.config.minPasswordLength) {
    throw new InvalidArgumentError(`password must be at least ${cx.config.minPasswordLength} characters`);
  }
  if (input.email !== undefined) {
    const problem = emailProblem(input.email);
    if (problem) throw new InvalidArgumentError(problem);
  }
  const passwordHash = input.password ? await hashPassword(input.password, cx.config.passwordHash) : undefined;
  return withTx(cx, async (tx, emit) => {
    const { data, fields, set } = userUpdatePlan();
    set('loginName', input.loginName, 'login_name');
    set('passwordHash', passwordHash, 'password');
    set('mustChangePassword', input.mustChangePassword, 'must_change_password');
    set('prohibitLogin', input.prohibitLogin, 'prohibit_login');
    set('fullName', input.fullName, 'full_name');
    set('website', input.website, 'website');
    set('location', input.location, 'location');
    set('description', input.description, 'description');
    set('isActive', input.active, 'active');
    set('visibility', input.visibility, 'visibility');
    set('allowGitHook', input.allowGitHook, 'allow_git_hook');
    set('allowImportLocal', input.allowImportLocal, 'allow_import_local');
    set('maxRepoCreation', input.maxRepoCreation, 'max_repo_creation');
    set('allowCreateOrganization', input.allowCreateOrganization, 'allow_create_organization');
    set('isRestricted', input.restricted, 'restricted');
    if (input.admin !== undefined && input.admin !== target.isAdmin) {
      if (!input.admin && (await tx.user.count({ where: { isAdmin: true, type: 'INDIVIDUAL' } })) <= 1) {
        throw new InvalidArgumentError(`can not delete the last admin user [uid: ${target.id}]`);
      }
      set('isAdmin', input.admin, 'admin');
    }
    if (input.email !== undefined && input.email.toLowerCase() !== target.email.toLowerCase()) {
      await replacePrimaryEmail(tx, target, input.email);
      set('email', input.email, 'email');
    }
    const user = await tx.user.update({ where: { id: target.id }, data });
    emit({ type: 'user.updated', userId: user.id, actorId: cx.viewer?.id ?? null, fields });
    if (passwordHash) emit({ type: 'user.passwordChanged', userId: user.id, actorId: cx.viewer?.id ?? null });
    return user;
  });
}

async function replacePrimaryEmail(tx: DbLike, user: User, email: string): Promise<void> {
  const lowerEmail = email.toLowerCase();
  const existing = await tx.emailAddress.findUnique({ where: { lowerEmail } });
  if (existing && existing.userId !== user.id) throw new InvalidArgumentError(`e-mail already in use [email: ${email}]`);
  await tx.emailAddress.deleteMany({ where: { userId: user.id, isPrimary: true } });
  if (existing) {
    await tx.emailAddress.update({ where: { id: existing.id }, data: { email, isPrimary: true, isActivated: true } });
  } else {
    await tx.emailAddress.create({ data: { userId: user.id, email, lowerEmail, isPrimary: true, isActivated: true } });
  }
}

/**
 * Deletes a user (DELETE /admin/users/{username}). Refuses organizations, oneself, the last admin, and users who
 * still own repositories or belong to organizations unless `purge` removes those too.
 * @throws PermissionDeniedError, NotFoundError, ValidationError
 */
export async function deleteUser(cx: ServiceContext, username: string, opts: { purge?: boolean } = {}): Promise<void> {
  const target = await getIndividualForAdmin(cx, username);
  if (target.type === 'ORGANIZATION') throw new ValidationError(`${target.name} is an organization not a user`);
  if (cx.viewer?.id === target.id) throw new ValidationError('you cannot delete yourself');
  await withTx(cx, async (tx, emit) => {
    if (target.isAdmin && (await tx.user.count({ where: { isAdmin: true, type: 'INDIVIDUAL' } })) <= 1) {
      throw new ValidationError(`can not delete the last admin user [uid: ${target.id}]`);
    }
    const [repos, orgs] = await Promise.all([
      tx.repository.count({ where: { ownerId: target.id } }),
      tx.orgUser.count({ where: { userId: target.id } }),
    ]);
    if (repos > 0 && !opts.purge) throw new ValidationError(`user still has ownership of repositories [uid: ${target.id}]`);
    if (orgs > 0 && !opts.purge) throw new ValidationError(`user still has membership of organizations [uid: ${target.id}]`);
    await tx.user.delete({ where: { id: target.id } });
    emit({ type: 'user.deleted', userId: target.id, login: target.name, actorId: cx.viewer?.id ?? null });
  });
  await removeAvatarFile(cx.config.avatars, 'user', target.avatar);
}

/** Sets a user's password (CLI `admin user change-password`). @throws NotFoundError, InvalidArgumentError */
export async function changePassword(
  cx: ServiceContext,
  input: { username: string; password: string; mustChangePassword?: boolean },
): Promise<User> {
  const target = await getIndividualForAdmin(cx, input.username);
  if (input.password.length < cx.config.minPasswordLength) {
    throw new InvalidArgumentError(`password must be at least ${cx.config.minPasswordLength} characters`);
  }
  const passwordHash = await hashPassword(input.password, cx.config.passwordHash);
  return withTx(cx, async (tx, emit) => {
    const user = await tx.user.update({
      where: { id: target.id },
      data: { passwordHash, ...(input.mustChangePassword !== undefined ? { mustChangePassword: input.mustChangePassword } : {}) },
    });
    emit({ type: 'user.passwordChanged', userId: user.id, actorId: cx.viewer?.id ?? null });
    return user;
  });
}
