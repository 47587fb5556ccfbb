// A repository's own git hook scripts (Gitea routers/api/v1/repo/git_hook.go; the gate is api.go's
// reqToken, reqAdmin, reqGitHook).
import { NotFoundError, PermissionDeniedError } from '../../errors.ts';
import { CUSTOM_HOOK_NAMES, isCustomHookName, readCustomHook, writeCustomHook, type CustomHook } from '../../git/customHooks.ts';
import { repoPath } from '../../git/repoPath.ts';
import { requireAdminRepo, type RepoRef } from '../access/repoAccess.ts';
import type { ServiceContext } from '../context.ts';

/** A hook as the API shows it: active when the repository has a script for it. */
export interface GitHookView extends CustomHook {
  isActive: boolean;
}

/**
 * Gitea's gate of /hooks/git: a signed-in repository admin (401, 403) who may edit git hooks (Gitea
 * CanEditGitHook: DISABLE_GIT_HOOKS is false and the user is a site admin or allowed git hooks; 403 otherwise).
 * Returns the repository's directory. @throws NotFoundError, UnauthenticatedError, PermissionDeniedError
 */
async function requireGitHookEditor(cx: ServiceContext, ref: RepoRef, level: 'read' | 'write'): Promise<string> {
  const { repo } = await requireAdminRepo(cx, ref, `${level}:repository`);
  const viewer = cx.viewer;
  if (cx.config.disableGitHooks || !viewer || !(viewer.isAdmin || viewer.allowGitHook))
    throw new PermissionDeniedError('must be allowed to edit Git hooks', { repoId: repo.id });
  return repoPath(cx.config.repositoriesDir, repo.ownerName, repo.name);
}

const view = (hook: CustomHook): GitHookView => ({ ...hook, isActive: hook.content !== '' });

/** The hook `name`, 404 for a name that is no server-side hook. @throws NotFoundError */
function hookName(name: string) {
  if (!isCustomHookName(name)) throw new NotFoundError(`hook does not exist [name: ${name}]`, { name });
  return name;
}

/** GET /repos/{o}/{r}/hooks/git (Gitea ListGitHooks): pre-receive, update and post-receive. @throws NotFoundError, UnauthenticatedError, PermissionDeniedError */
export async function listGitHooks(cx: ServiceContext, ref: RepoRef): Promise<GitHookView[]> {
  const gitDir = await requireGitHookEditor(cx, ref, 'read');
  return Promise.all(CUSTOM_HOOK_NAMES.map(async (name) => view(await readCustomHook(gitDir, name))));
}

/** GET /repos/{o}/{r}/hooks/git/{id} (Gitea GetGitHook). @throws NotFoundError, UnauthenticatedError, PermissionDeniedError */
export async function getGitHook(cx: ServiceContext, ref: RepoRef, name: string): Promise<GitHookView> {
  const gitDir = await requireGitHookEditor(cx, ref, 'read');
  return view(await readCustomHook(gitDir, hookName(name)));
}

/**
 * PATCH /repos/{o}/{r}/hooks/git/{id} (Gitea EditGitHook): sets the script (empty removes it) and returns the hook.
 * @throws NotFoundError, UnauthenticatedError, PermissionDeniedError
 */
export async function editGitHook(cx: ServiceContext, ref: RepoRef, name: string, content: string): Promise<GitHookView> {
  const gitDir = await requireGitHookEditor(cx, ref, 'write');
  const hook = hookName(name);
  await writeCustomHook(gitDir, hook, content);
  return view(await readCustomHook(gitDir, hook));
}

/** DELETE /repos/{o}/{r}/hooks/git/{id} (Gitea DeleteGitHook): removes the script. @throws NotFoundError, UnauthenticatedError, PermissionDeniedError */
export async function deleteGitHook(cx: ServiceContext, ref: RepoRef, name: string): Promise<void> {
  const gitDir = await requireGitHookEditor(cx, ref, 'write');
  await writeCustomHook(gitDir, hookName(name), '');
}
