import type { Models } from '../../db/client.ts';
import { NotFoundError, ValidationError } from '../../errors.ts';
import type { RepoPermission } from '../../permissions/repoPermission.ts';
import { isSiteAdmin } from '../access/guards.ts';
import { type RepoRef, requireAdminRepo } from '../access/repoAccess.ts';
import { withTx, type ServiceContext } from '../context.ts';
import { skipTake, type ListOptions, type ListWindow, type Page } from '../paging.ts';
import { loadApiRepos, type ApiRepoRow } from './repoRows.ts';
import { parsePublicKey } from '../user/sshKey.ts';
import { repoAdminWhere } from '../access/repoAdminWhere.ts';

/** A deploy key with its key material and what its URL needs; `repository` only where Gitea shows it. */
export interface DeployKeyView {
  key: Models.DeployKey & { key: Pick<Models.PublicKey, 'content'> };
  repo: Pick<Models.Repository, 'ownerName' | 'name'>;
  /** The repository (site admins and the owning user only, as Gitea's appendPrivateInformation). */
  repository: { repo: ApiRepoRow; perm: RepoPermission } | null;
}

/** Gitea CreateKeyOption: the key line, its title, and read-only (false = write access). */
export interface CreateDeployKeyInput {
  title: string;
  key: string;
  readOnly?: boolean;
}

/** Filters of GET /repos/{o}/{r}/keys. */
export interface DeployKeyFilter {
  keyId?: number;
  fingerprint?: string;
}

/** The read policy of deploy keys (Gitea reqAdmin on GET …/keys) as one Prisma filter: those of repositories the viewer administers. */
export function deployKeyReadWhere(cx: ServiceContext): Models.Prisma.DeployKeyWhereInput {
  return { repo: repoAdminWhere(cx) };
}

const INCLUDE = { key: { select: { content: true } } } as const;

/** Gitea shows the repository to site admins and to the user owning it (never for organization repositories). */
function showsRepository(cx: ServiceContext, repo: Models.Repository): boolean {
  return isSiteAdmin(cx) || (cx.viewer !== null && cx.viewer.id === repo.ownerId);
}

async function repositoryOf(cx: ServiceContext, repo: Models.Repository, perm: RepoPermission): Promise<DeployKeyView['repository']> {
  if (!showsRepository(cx, repo)) return null;
  const [row] = await loadApiRepos(cx, { where: { id: repo.id } });
  return row ? { repo: row, perm } : null;
}

const validId = (id: number): boolean => Number.isInteger(id) && id > 0 && id <= 2_147_483_647;

/**
 * The repository's deploy keys, oldest first, optionally filtered by public key id or fingerprint (repository admins).
 * @throws NotFoundError, UnauthenticatedError, PermissionDeniedError
 */
export async function listDeployKeys(
  cx: ServiceContext,
  ref: RepoRef,
  filter: DeployKeyFilter,
  opts: ListOptions | ListWindow,
): Promise<Page<DeployKeyView>> {
  const { repo, perm } = await requireAdminRepo(cx, ref, 'read:repository');
  const where: Models.Prisma.DeployKeyWhereInput = { repoId: repo.id };
  if (filter.keyId) where.keyId = validId(filter.keyId) ? filter.keyId : 0;
  if (filter.fingerprint) where.fingerprint = filter.fingerprint;
  const [rows, total, repository] = await Promise.all([
    cx.db.deployKey.findMany({ where, orderBy: { id: 'asc' }, include: INCLUDE, ...skipTake(opts) }),
    cx.db.deployKey.count({ where }),
    repositoryOf(cx, repo, perm),
  ]);
  return { items: rows.map((key) => ({ key, repo, repository })), total };
}

/** One deploy key of the repository; another repository's id is not found. @throws NotFoundError, UnauthenticatedError, PermissionDeniedError */
export async function getDeployKey(cx: ServiceContext, ref: RepoRef, id: number): Promise<DeployKeyView> {
  const { repo, perm } = await requireAdminRepo(cx, ref, 'read:repository');
  const key = validId(id) ? await cx.db.deployKey.findFirst({ where: { id, repoId: repo.id }, include: INCLUDE }) : null;
  if (!key) throw new NotFoundError('not found', { deployKeyId: id });
  return { key, repo, repository: await repositoryOf(cx, repo, perm) };
}

/**
 * Adds a deploy key (Gitea AddDeployKey): the key is validated and normalised; the same key may serve several
 * repositories (one shared PublicKey row) but not twice this one, a title is unique per repository, and a
 * user's SSH key cannot become a deploy key. `readOnly` defaults to false (write access).
 * @throws NotFoundError, UnauthenticatedError, PermissionDeniedError, ValidationError (Gitea's 422 messages)
 */
export async function createDeployKey(cx: ServiceContext, ref: RepoRef, input: CreateDeployKeyInput): Promise<DeployKeyView> {
  const { repo } = await requireAdminRepo(cx, ref, 'write:repository');
  if (input.title.includes('\u0000')) throw new ValidationError('Invalid', { field: 'title', rule: 'Invalid' });
  const parsed = parsePublicKey(input.key);
  const mode = input.readOnly ? 'READ' : 'WRITE';
  const key = await withTx(cx, async (tx, emit) => {
    let pkey = await tx.publicKey.findFirst({ where: { fingerprint: parsed.fingerprint }, orderBy: { id: 'asc' } });
    if (pkey && pkey.type !== 'DEPLOY') throw new ValidationError('Key content has been used as non-deploy key');
    if (pkey && (await tx.deployKey.findUnique({ where: { keyId_repoId: { keyId: pkey.id, repoId: repo.id } }, select: { id: true } }))) {
      throw new ValidationError('This key has already been added to this repository');
    }
    if (await tx.deployKey.findFirst({ where: { repoId: repo.id, name: input.title }, select: { id: true } })) {
      throw new ValidationError('A key with the same name already exists');
    }
    pkey ??= await tx.publicKey.create({
      data: { ownerId: null, name: input.title, fingerprint: parsed.fingerprint, content: parsed.content, mode, type: 'DEPLOY' },
    });
    const created = await tx.deployKey.create({
      data: { keyId: pkey.id, repoId: repo.id, name: input.title, fingerprint: pkey.fingerprint, mode },
      include: INCLUDE,
    });
    emit({ type: 'repo.deployKeyAdded', repoId: repo.id, keyId: created.id, actorId: cx.viewer?.id ?? null });
    return created;
  });
  // Gitea answers with the content it just normalised, and without the repository.
  return { key: { ...key, key: { content: parsed.content } }, repo, repository: null };
}

/**
 * Removes a deploy key of the repository; the shared key material goes with its last use.
 * An id that is missing or belongs to another repository is not found (Gitea: 204 / 403).
 * @throws NotFoundError, UnauthenticatedError, PermissionDeniedError
 */
export async function deleteDeployKey(cx: ServiceContext, ref: RepoRef, id: number): Promise<void> {
  const { repo } = await requireAdminRepo(cx, ref, 'write:repository');
  const key = validId(id) ? await cx.db.deployKey.findFirst({ where: { id, repoId: repo.id } }) : null;
  if (!key) throw new NotFoundError('not found', { deployKeyId: id });
  await withTx(cx, async (tx, emit) => {
    await tx.deployKey.deleteMany({ where: { id: key.id } });
    if ((await tx.deployKey.count({ where: { keyId: key.keyId } })) === 0) {
      await tx.publicKey.deleteMany({ where: { id: key.keyId, type: 'DEPLOY' } });
    }
    emit({ type: 'repo.deployKeyRemoved', repoId: repo.id, keyId: key.id, actorId: cx.viewer?.id ?? null });
  });
}
