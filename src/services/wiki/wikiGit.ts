// The wiki over git smart HTTP (`/{owner}/{repo}.wiki.git`, Gitea httpBase with isWiki).
import { existsSync } from 'node:fs';
import { NotFoundError } from '../../errors.ts';
import { wikiPath } from '../../git/repoPath.ts';
import type { ServiceContext } from '../context.ts';
import { GIT_MESSAGES, requireGitUnit, type GitRepoAccess } from '../repo/gitAccess.ts';
import { initWiki } from './wikiRepo.ts';

/**
 * Access to a repository's wiki over git: the wiki unit's read to fetch, its write to push (the code's rules
 * otherwise: archived and mirrored repositories refuse pushes). The wiki's repository is made by its first push;
 * before that there is nothing to fetch.
 * @throws UnauthenticatedError, NotFoundError, RepoArchivedError, PermissionDeniedError
 */
export async function requireWikiGitAccess(
  cx: ServiceContext,
  owner: string,
  name: string,
  mode: 'read' | 'write',
): Promise<GitRepoAccess> {
  const repo = await requireGitUnit(cx, owner, name, mode, 'WIKI');
  const gitDir = wikiPath(cx.config.repositoriesDir, repo.ownerName, repo.name);
  if (!existsSync(gitDir)) {
    if (mode === 'read') throw new NotFoundError(GIT_MESSAGES.notFound, { owner, name });
    await initWiki(cx, gitDir);
  }
  return { repo, gitDir, target: 'wiki' };
}
