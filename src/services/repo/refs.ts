// Branch refs moved through the graph (GitHub's createRef, updateRef, deleteRef), through moveRefs: the protection
// gate of a push (createRef, updateRef) or of an API branch deletion (deleteRef), recorded as pushes.
import type { Models } from '../../db/client.ts';
import { AlreadyExistsError, ConflictError, InvalidArgumentError, NotFoundError, PermissionDeniedError } from '../../errors.ts';
import { isAncestor } from '../../git/compare.ts';
import { readRef } from '../../git/readRefs.ts';
import { repoPath } from '../../git/repoPath.ts';
import { resolveRef, isSafeRefName } from '../../git/resolveRef.ts';
import { requireViewer } from '../access/guards.ts';
import { requireRepoAccess, requireUnitWrite, type RepoRef } from '../access/repoAccess.ts';
import type { ServiceContext } from '../context.ts';
import { moveRefs } from './moveRefs.ts';
import { branchRefView, HEADS, REF_REPO_SELECT, type RefView } from './refView.ts';
import { branchReadWhere } from './visibility.ts';

async function writableRepoById(cx: ServiceContext, repoId: number): Promise<{ repo: Models.Repository; gitDir: string }> {
  requireViewer(cx);
  const row = await cx.db.repository.findUnique({ where: { id: repoId } });
  if (!row) throw new NotFoundError('repository does not exist', { repoId });
  const access = await requireRepoAccess(cx, row);
  requireUnitWrite(cx, access, 'CODE', 'write:repository');
  if (row.isMirror) throw new PermissionDeniedError('Git Repository is a mirror.');
  return { repo: row, gitDir: repoPath(cx.config.repositoriesDir, row.ownerName, row.name) };
}

/** A fully qualified branch ref (`refs/heads/…`); tags are written through the tags API. @throws InvalidArgumentError */
function branchOf(name: string): string {
  if (!name.startsWith(HEADS) || !isSafeRefName(name.slice(HEADS.length))) {
    throw new InvalidArgumentError(`invalid ref name: ${name} (a fully qualified branch name, refs/heads/…)`, { name });
  }
  return name.slice(HEADS.length);
}

/** The commit an oid names in the repository. @throws NotFoundError */
async function commitOf(gitDir: string, oid: string): Promise<string> {
  const r = /^[0-9a-f]{40}$|^[0-9a-f]{64}$/i.test(oid) ? await resolveRef(gitDir, oid) : null;
  if (!r) throw new NotFoundError(`object does not exist [id: ${oid}, rel_path: ]`, { oid });
  return r.commit;
}

/** A branch the API just wrote (its push job has run), as a ref. */
async function branchRow(cx: ServiceContext, repoId: number, name: string): Promise<RefView> {
  const row = await cx.db.branch.findUnique({ where: { repoId_name: { repoId, name } }, include: { repo: { select: REF_REPO_SELECT } } });
  if (!row) throw new NotFoundError(`branch does not exist [name: ${name}]`, { name });
  return branchRefView(row);
}

/** Where a branch named by its id lives. */
export interface RefLocation {
  repoId: number;
  repo: RepoRef;
  /** The branch name. */
  branch: string;
  /** The fully qualified ref name (refs/heads/…). */
  name: string;
}

/** A branch the viewer may read, by its row id (GitHub's Ref id). @throws NotFoundError */
export async function refById(cx: ServiceContext, branchId: number): Promise<RefLocation> {
  const row = await cx.db.branch.findFirst({
    where: { id: branchId, isDeleted: false, AND: [branchReadWhere(cx)] },
    select: { repoId: true, name: true, repo: { select: { ownerName: true, name: true } } },
  });
  if (!row) throw new NotFoundError('ref does not exist', { branchId });
  return { repoId: row.repoId, repo: { owner: row.repo.ownerName, repo: row.repo.name }, branch: row.name, name: HEADS + row.name };
}

/** GitHub createRef: a new branch at `oid`. @throws NotFoundError, PermissionDeniedError, RepoArchivedError, AlreadyExistsError, InvalidArgumentError */
export async function createRef(cx: ServiceContext, repoId: number, name: string, oid: string): Promise<RefView> {
  const { repo, gitDir } = await writableRepoById(cx, repoId);
  const branch = branchOf(name);
  const sha = await commitOf(gitDir, oid);
  if (await readRef(gitDir, name)) throw new AlreadyExistsError('The branch already exists.', { name });
  const zero = '0'.repeat(sha.length);
  const created = await moveRefs(cx, repo, [{ ref: name, oldSha: zero, newSha: sha }], { kind: 'push' });
  if (!created.moved) throw new AlreadyExistsError('The branch already exists.', { name });
  return branchRow(cx, repo.id, branch);
}

/**
 * GitHub updateRef: moves a branch to `oid`, a fast-forward unless `force`; a protected branch as its rule lets
 * the viewer push (and force push).
 * @throws NotFoundError, PermissionDeniedError, RepoArchivedError, ConflictError, InvalidArgumentError
 */
export async function updateRef(cx: ServiceContext, repoId: number, name: string, oid: string, force: boolean): Promise<RefView> {
  const { repo, gitDir } = await writableRepoById(cx, repoId);
  const branch = branchOf(name);
  const sha = await commitOf(gitDir, oid);
  const current = await readRef(gitDir, name);
  if (!current) throw new NotFoundError(`branch does not exist [name: ${branch}]`, { name });
  if (!force && current !== sha && !(await isAncestor(gitDir, current, sha))) {
    throw new ConflictError('Update is not a fast forward', { name, current, oid: sha });
  }
  const moved = await moveRefs(cx, repo, [{ ref: name, oldSha: current, newSha: sha }], { kind: 'push' });
  if (!moved.moved) throw new ConflictError(`branch ${branch} was changed by someone else meanwhile; retry`, { name });
  return branchRow(cx, repo.id, branch);
}

/** GitHub deleteRef: deletes a branch (not the default one, nor a protected one). @throws NotFoundError, PermissionDeniedError, RepoArchivedError, InvalidArgumentError */
export async function deleteRef(cx: ServiceContext, repoId: number, name: string): Promise<void> {
  const { repo, gitDir } = await writableRepoById(cx, repoId);
  const branch = branchOf(name);
  const current = await readRef(gitDir, name);
  if (!current) throw new NotFoundError(`branch does not exist [name: ${branch}]`, { name });
  if (branch === repo.defaultBranch) throw new PermissionDeniedError('can not delete default branch', { name });
  const deleted = await moveRefs(cx, repo, [{ ref: name, oldSha: current, newSha: '0'.repeat(current.length) }], { kind: 'delete' });
  if (!deleted.moved) throw new ConflictError(`branch ${branch} was changed by someone else meanwhile; retry`, { name });
}
