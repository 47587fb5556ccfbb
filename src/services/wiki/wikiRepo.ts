// A repository's wiki (Gitea services/wiki): a bare git repository `<repo>.wiki.git` beside the code's, whose
// pages are the `.md` files of its default branch (HEAD). One read policy (the wiki unit readable, Gitea
// mustEnableWiki) and one write gate (the wiki unit writable, not archived, Gitea reqRepoWriter(unit.TypeWiki)).
import { existsSync } from 'node:fs';
import type { Models } from '../../db/client.ts';
import { AlreadyExistsError, NotFoundError, PermissionDeniedError } from '../../errors.ts';
import { hooksDir } from '../../git/installHooks.ts';
import { initRepository } from '../../git/initRepository.ts';
import { lookupPaths } from '../../git/lookupPaths.ts';
import { readHeadBranch } from '../../git/readHead.ts';
import { readRef } from '../../git/readRefs.ts';
import { wikiPath } from '../../git/repoPath.ts';
import { requireViewer } from '../access/guards.ts';
import { requireRepo, requireUnitRead, requireUnitWrite, type RepoAccess, type RepoRef } from '../access/repoAccess.ts';
import type { ServiceContext } from '../context.ts';
import { validateDefaultBranch } from '../repo/validate.ts';

/** A wiki the viewer may read (or write), and where it lives. */
export interface WikiAccess extends RepoAccess {
  gitDir: string;
}

/** The wiki's branch and its tip. */
export interface WikiHead {
  branch: string;
  commit: string;
}

function withDir(cx: ServiceContext, access: RepoAccess): WikiAccess {
  return { ...access, gitDir: wikiPath(cx.config.repositoriesDir, access.repo.ownerName, access.repo.name) };
}

/**
 * The wiki of `ref` for reading: the repository visible and its wiki unit enabled and readable (an external wiki
 * is not this one: 404, as Gitea's mustEnableWiki).
 * @throws NotFoundError
 */
export async function requireWikiRead(cx: ServiceContext, ref: RepoRef): Promise<WikiAccess> {
  const access = await requireRepo(cx, ref.owner, ref.repo);
  requireUnitRead(access, 'WIKI');
  return withDir(cx, access);
}

/**
 * The wiki of `ref` for writing (Gitea reqToken, mustNotBeArchived, reqRepoWriter(unit.TypeWiki)); a mirror's
 * wiki follows its source, so it is read-only.
 * @throws NotFoundError, UnauthenticatedError, RepoArchivedError, PermissionDeniedError
 */
export async function requireWikiWrite(cx: ServiceContext, ref: RepoRef): Promise<WikiAccess & { doer: Models.User }> {
  const doer = requireViewer(cx);
  const access = await requireWikiRead(cx, ref);
  requireUnitWrite(cx, access, 'WIKI', 'write:repository');
  if (access.repo.isMirror) throw new PermissionDeniedError('mirror repository is read-only');
  return { ...access, doer };
}

/** Where the wiki's pages are: the branch HEAD names and its commit; null while the wiki has no commit. */
export async function wikiHead(gitDir: string): Promise<WikiHead | null> {
  if (!existsSync(gitDir)) return null;
  const branch = await readHeadBranch(gitDir);
  const commit = branch ? await readRef(gitDir, `refs/heads/${branch}`) : null;
  return branch && commit ? { branch, commit } : null;
}

/** The wiki's head for a read. @throws NotFoundError while the wiki has no page */
export async function requireWikiHead(access: WikiAccess): Promise<WikiHead> {
  const head = await wikiHead(access.gitDir);
  if (!head) throw new NotFoundError('not found', { wiki: access.repo.id });
  return head;
}

/**
 * Creates the wiki's repository on its first write (Gitea InitWiki), HEAD on the instance's default branch name;
 * a wiki that exists (made meanwhile too) is left as it is. Returns the branch its pages are written to.
 */
export async function initWiki(cx: ServiceContext, gitDir: string): Promise<string> {
  if (!existsSync(gitDir)) {
    await initRepository({
      gitdir: gitDir,
      defaultBranch: validateDefaultBranch(undefined),
      // The wiki is written in process by isomorphic-git, which knows SHA-1 only.
      objectFormat: 'sha1',
      hooksDir: hooksDir(cx.config.dataDir),
    }).catch((err: unknown) => {
      if (!(err instanceof AlreadyExistsError)) throw err;
    });
  }
  return (await readHeadBranch(gitDir)) ?? validateDefaultBranch(undefined);
}

/**
 * Which file of `commit` a page is (Gitea prepareGitPath): its unescaped name (`<web path>.md`) when that file
 * exists, else its git path (WebPathToGitPath); `exists` says whether either is there.
 */
export async function pageFile(
  gitDir: string,
  commit: string | null,
  webPath: string,
  gitPath: string,
): Promise<{ exists: boolean; path: string }> {
  if (!commit) return { exists: false, path: gitPath };
  const unescaped = `${webPath}.md`;
  const found = await lookupPaths(gitDir, commit, [unescaped, gitPath]);
  if (found.get(unescaped)?.type === 'blob') return { exists: true, path: unescaped };
  return { exists: found.get(gitPath)?.type === 'blob', path: gitPath };
}
