// Trees and refs through the API (Gitea routers/api/v1/repo/tree.go, git_ref.go).
import type { Models } from '../../db/client.ts';
import { InvalidArgumentError, NotFoundError } from '../../errors.ts';
import { listRefs, type GitRef } from '../../git/listRefs.ts';
import { readGitTree } from '../../git/readGitTree.ts';
import type { TreeEntry } from '../../git/readTreePath.ts';
import { isSafeRefName } from '../../git/resolveRef.ts';
import type { RepoRef } from '../access/repoAccess.ts';
import type { ServiceContext } from '../context.ts';
import { requireCodeRead } from './gitRead.ts';

/** Gitea `[api] DEFAULT_GIT_TREES_PER_PAGE`. */
export const DEFAULT_TREE_PAGE = 1000;

/** One page of a tree's entries. */
export interface TreePage {
  repo: Models.Repository;
  sha: string;
  entries: TreeEntry[];
  page: number;
  total: number;
  truncated: boolean;
}

/**
 * GET /repos/{o}/{r}/git/trees/{sha} (Gitea GetTreeBySHA): the tree a tree id, commit id or ref names, with
 * subtrees' entries too when `recursive`, one page (`per_page` default 1000); `truncated` when more follow.
 * An unknown sha is 400, as in Gitea.
 * @throws NotFoundError (repository), InvalidArgumentError
 */
export async function getTree(
  cx: ServiceContext,
  ref: RepoRef,
  sha: string,
  opts: { recursive: boolean; page: number; perPage: number },
): Promise<TreePage> {
  const access = await requireCodeRead(cx, ref.owner, ref.repo);
  if (!sha) throw new InvalidArgumentError('sha not provided');
  const tree = access.repo.isEmpty ? null : await readGitTree(access.gitDir, sha, opts.recursive);
  if (!tree) throw new InvalidArgumentError(`sha not found [${sha}]`, { sha });
  const perPage = opts.perPage > 0 ? opts.perPage : DEFAULT_TREE_PAGE;
  const page = Math.max(1, opts.page);
  const start = (page - 1) * perPage;
  const entries = tree.entries.slice(start, start + perPage);
  return { repo: access.repo, sha: tree.sha, entries, page, total: tree.entries.length, truncated: start + perPage < tree.entries.length };
}

/**
 * GET /repos/{o}/{r}/git/refs[/{ref}] (Gitea getGitRefs): the refs under `refs/<filter>` (all when empty);
 * none is 404. `exact` says whether a single match is the ref asked for (Gitea then answers an object).
 * @throws NotFoundError
 */
export async function listGitRefs(
  cx: ServiceContext,
  ref: RepoRef,
  filter: string,
): Promise<{ repo: Models.Repository; refs: GitRef[]; exact: boolean }> {
  const access = await requireCodeRead(cx, ref.owner, ref.repo);
  const clean = filter.replace(/^\/+|\/+$/g, '');
  if (clean && !isSafeRefName(clean)) throw new NotFoundError('not found', { ref: filter });
  const prefix = `refs/${clean}`;
  const refs = access.repo.isEmpty ? [] : await listRefs(access.gitDir, prefix);
  if (!refs.length) throw new NotFoundError('not found', { ref: filter });
  return { repo: access.repo, refs, exact: refs.length === 1 && !!clean && refs[0]?.ref.endsWith(clean) === true };
}
